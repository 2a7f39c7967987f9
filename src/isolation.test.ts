import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Kind, RESOURCES } from './modules/registry.ts';
import { type Client, setUserPassword, setup, signInClient } from './test/helpers.ts';
import { closeConnections, type Frame, openStream } from './test/sse.ts';

// Tenant and visibility isolation (issue 11), generated from the route table: every operation that
// takes an id in its path is called with an id that does not exist, one of another workspace, and
// (where the kind can be private) one behind a private team or area the caller is not in. The three answers
// must be the same: same status, same body (but for the request id), same headers. So a caller can
// never tell "hidden" or "elsewhere" from "missing", and learns nothing else either.

const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true', CAIRN_STREAM_HEARTBEAT_MS: '50' });
const viewer = await f.newUser('member', 'Vera Viewer');
const insider = await f.newUser('member', 'Ian Insider');
const guest = await f.newUser('guest', 'Gus Guest');
await setUserPassword(f.database, f.ws.workspace.id, viewer.id, 'a viewer long password');
const viewerSignedIn = await signInClient(f.app, viewer.email, 'a viewer long password');

/** publicIds of what was made, by id (tasks have numbers, teams and projects short codes). */
const publicIds = new Map<string, string>();

async function made(as: Client, url: string, body: unknown): Promise<string> {
  const res = await as.post(url, body);
  assert.ok(res.status === 200 || res.status === 201, `${url}: ${JSON.stringify(res.body)}`);
  if (res.body.publicId !== undefined && res.body.publicId !== null)
    publicIds.set(res.body.id, String(res.body.publicId));
  return res.body.id;
}

/** One of each resource of the registry, made by `as` in team `teamId` and area `areaId`. */
async function seedResources(as: Client, teamId: string, areaId: string): Promise<Fixtures> {
  const task = await made(as, '/v1/tasks?expand=none', { name: 'Iso task', teamId });
  return {
    task,
    project: await made(as, '/v1/projects?expand=none', { name: 'Iso project', teamIds: [teamId] }),
    document: await made(as, '/v1/documents?expand=none', { name: 'Iso doc', teamId }),
    post: await made(as, '/v1/posts', { entityType: 'task', entityId: task, content: 'Iso post' }),
    team: teamId,
    area: areaId,
    task_template: await made(as, '/v1/task-templates', { name: 'Iso template', areaId }),
    project_template: await made(as, '/v1/project-templates', {
      name: 'Iso project template',
      ownedByAreaId: areaId,
    }),
    user: null,
  };
}

/**
 * An id of each resource of the registry (modules/registry.ts), by kind; null only for a kind with no
 * id route. Typed by the registry's kinds, so a new resource fails the typecheck until it has one here,
 * and a resource with id routes but a null fixture fails the tests below.
 */
type Fixtures = Record<Kind, string | null>;

/** The fixtures by the collection of their id routes (`/v1/<path>/{id}`). */
function byPath(fixtures: Fixtures): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { kind, path } of RESOURCES) {
    const id = fixtures[kind];
    if (path && id) out[path] = id;
  }
  return out;
}

/**
 * Id routes of what is not a resource of the registry (webhook subscriptions, API tokens, sessions,
 * invitations: owners only, so to a member or a guest every id is the same 403), and
 * GET /v1/users/{id}: users are in the registry for their search index only, without id routes.
 */
async function seedOthers(as: Client, hookBase: string, signedIn: Client): Promise<Record<string, string>> {
  return {
    sessions: (await signedIn.get('/v1/auth/sessions')).body.data[0].id,
    users: (await as.get('/v1/me')).body.id,
    subscribe: await made(as, '/v1/webhooks/subscribe', {
      hookUrl: `${hookBase}/iso`,
      event: 'task.created',
    }),
    'api-tokens': await made(as, '/v1/api-tokens', { name: 'Iso token' }),
    invitations: await made(as, '/v1/invitations', { email: 'iso-invitee@elsewhere.test', role: 'member' }),
  };
}

const other = await f.newWorkspace('Elsewhere');
const theirTeam = await made(other.owner, '/v1/teams', { name: 'Theirs' });
const theirArea = await made(other.owner, '/v1/areas', { name: 'Their area' });
const foreignResources = await seedResources(other.owner, theirTeam, theirArea);
// Their owner signed in with a password too, for a session of another workspace.
await setUserPassword(f.database, other.ws.workspace.id, other.ws.user.id, 'their own long password');
const theirSession = await signInClient(f.app, other.ws.user.email, 'their own long password');
const foreign: Record<string, string> = {
  ...byPath(foreignResources),
  ...(await seedOthers(other.owner, 'http://127.0.0.1:9', theirSession.api)),
};
// The same kinds behind a private team and a private area the viewer and the guest are not in.
const vault = await made(insider.api, '/v1/teams', { name: 'Vault', privacy: 'private' });
const vaultArea = await made(insider.api, '/v1/areas', { name: 'Vault area', privacy: 'private' });
const vaultTask = await made(insider.api, '/v1/tasks?expand=none', { name: 'Vault task', teamId: vault });
const hiddenResources: Fixtures = {
  task: vaultTask,
  project: await made(insider.api, '/v1/projects?expand=none', { name: 'Vault project', teamIds: [vault] }),
  document: await made(insider.api, '/v1/documents?expand=none', { name: 'Vault doc', teamId: vault }),
  post: await made(insider.api, '/v1/posts', {
    entityType: 'task',
    entityId: vaultTask,
    content: 'Vault post',
  }),
  team: vault,
  area: vaultArea,
  task_template: await made(insider.api, '/v1/task-templates', { name: 'Vault template', areaId: vaultArea }),
  project_template: await made(insider.api, '/v1/project-templates', {
    name: 'Vault project template',
    ownedByAreaId: vaultArea,
  }),
  user: null,
};
const hidden: Record<string, string> = byPath(hiddenResources);
const MISSING = '00000000-0000-4000-8000-00000000abcd';

/** The kind of thing a path's first id names: the collection segment before it. */
function kindOf(path: string): string | undefined {
  const m = /\/v1\/(?:webhooks\/|auth\/)?([a-z-]+)\/\{id\}/.exec(path);
  return m?.[1];
}

/** What may differ between two answers that must look alike. */
function normalized(res: { status: number; headers: Record<string, unknown>; body: unknown }) {
  const { requestId: _, ...body } = (
    typeof res.body === 'object' && res.body ? res.body : { raw: res.body }
  ) as Record<string, unknown>;
  const headers = Object.keys(res.headers)
    .filter(
      (h) => !['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'connection'].includes(h),
    )
    .sort()
    .map((h) => `${h}: ${h === 'content-length' ? '' : res.headers[h]}`);
  return { status: res.status, body, headers };
}

const doc = (await f.anonymous.get('/openapi.json')).body;
const operations: { method: string; path: string; kind: string }[] = [];
for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
  const kind = kindOf(path);
  if (!kind) continue;
  for (const method of Object.keys(ops)) operations.push({ method: method.toUpperCase(), path, kind });
}

describe('isolation, generated from the route table', () => {
  test('the route table has the id routes of every kind', () => {
    const kinds = new Set(operations.map((o) => o.kind));
    for (const k of Object.keys(foreign)) assert.ok(kinds.has(k), `no route with a ${k} id`);
    assert.ok(operations.length >= 30, `only ${operations.length} id routes`);
  });

  test('every resource of the registry, and every id route, has its fixtures here', () => {
    for (const { kind, path } of RESOURCES) {
      if (path === null) continue;
      assert.ok(foreignResources[kind], `${kind} has id routes but no fixture in another workspace`);
      assert.ok(hiddenResources[kind], `${kind} has id routes but no fixture behind a private team or area`);
    }
    // An id route of something outside the registry is compared too, so it needs a fixture as well.
    const missing = [...new Set(operations.map((o) => o.kind))].filter((kind) => !foreign[kind]);
    assert.deepEqual(
      missing,
      [],
      `id routes without a fixture in another workspace (add them to seedOthers)`,
    );
  });

  for (const as of [
    ['a member', viewer.api],
    ['a guest', guest.api],
    ['a member signed in with a password (the session cookie)', viewerSignedIn.api],
  ] as const) {
    test(`to ${as[0]}, another workspace's and a private team's ids answer exactly as a missing id`, async () => {
      const compared: string[] = [];
      for (const op of operations) {
        const call = async (id: string) => {
          let url = op.path.replace('{id}', id);
          url = url.replace('{deliveryId}', MISSING).replace('{reaction}', 'thumbsup');
          if (op.method === 'GET') return as[1].get(url);
          if (op.method === 'DELETE') return as[1].delete(url);
          return as[1].post(url, {});
        };
        const missing = normalized(await call(MISSING));
        assert.ok(missing.status >= 400, `${op.method} ${op.path} with a missing id: ${missing.status}`);
        const candidates: [string, string | undefined][] = [
          ['another workspace', (foreign as Record<string, string>)[op.kind]],
          ['a private team or area', hidden[op.kind]],
        ];
        // A private team's thing by its publicId reads as a publicId that does not exist.
        const hiddenPublic = hidden[op.kind] && publicIds.get(hidden[op.kind]!);
        if (hiddenPublic) {
          const missingPublic = normalized(await call(/^\d+$/.test(hiddenPublic) ? '999999' : 'ZZNOPE'));
          const got = normalized(await call(hiddenPublic));
          assert.deepEqual(
            got,
            missingPublic,
            `${op.method} ${op.path} with a private team's publicId differs`,
          );
          compared.push(`${op.method} ${op.path} publicId`);
        }
        for (const [what, id] of candidates) {
          if (!id) continue;
          const got = normalized(await call(id));
          assert.deepEqual(
            got,
            missing,
            `${op.method} ${op.path} with ${what}'s id differs from a missing one`,
          );
          compared.push(`${op.method} ${op.path} ${what}`);
        }
      }
      assert.ok(compared.length >= 40, `only ${compared.length} comparisons`);
      const byPublicId = compared.filter((c) => c.endsWith('publicId')).length;
      assert.ok(byPublicId >= 10, `only ${byPublicId} comparisons by publicId`);
    });
  }

  // Owners see every team of their workspace, so only another workspace's ids are compared here; owner-only
  // routes (invitations, a person's password link) reach their lookup only for an owner.
  test("to an owner, another workspace's ids answer exactly as a missing id", async () => {
    const compared: string[] = [];
    for (const op of operations) {
      const id = (foreign as Record<string, string>)[op.kind];
      if (!id) continue;
      const call = async (ref: string) => {
        const url = op.path
          .replace('{id}', ref)
          .replace('{deliveryId}', MISSING)
          .replace('{reaction}', 'thumbsup');
        if (op.method === 'GET') return f.owner.get(url);
        if (op.method === 'DELETE') return f.owner.delete(url);
        return f.owner.post(url, {});
      };
      const missing = normalized(await call(MISSING));
      assert.ok(missing.status >= 400, `${op.method} ${op.path} with a missing id: ${missing.status}`);
      assert.deepEqual(
        normalized(await call(id)),
        missing,
        `${op.method} ${op.path} with another workspace's id differs`,
      );
      compared.push(`${op.method} ${op.path}`);
    }
    assert.ok(compared.includes('DELETE /v1/invitations/{id}'), compared.join(', '));
    assert.ok(compared.includes('POST /v1/users/{id}/password-reset'), compared.join(', '));
  });

  test('names of things out of sight are not found by any search, and totals do not count them', async () => {
    // Every text field of every resource's search route, from the registry, as a member and a guest.
    const routes = RESOURCES.flatMap(({ path, searchFields }) =>
      searchFields.map((field) => `/v1/${path}/search?${field}=`),
    );
    assert.ok(routes.length >= 12, `only ${routes.length} searched fields`);
    const searches = (word: string) =>
      [viewer, guest].flatMap((caller) => routes.map((route) => caller.api.get(`${route}${word}`)));
    const none = (await Promise.all(searches('Nowhereword'))).map(normalized);
    assert.deepEqual(
      none.map((r) => [r.status, r.body.total]),
      none.map(() => [200, 0]),
    );
    for (const word of ['Vault', 'Their', 'Theirs', 'Iso']) {
      const got = (await Promise.all(searches(word))).map(normalized);
      assert.deepEqual(got, none, `a search for "${word}" finds something out of sight`);
    }
    // The insider does find them: the searches are not simply broken.
    const seen = await insider.api.get('/v1/tasks/search?name=Vault');
    assert.equal(seen.body.total, 1);
  });

  test('expansions never show what is out of sight', async () => {
    const open = await made(insider.api, '/v1/teams', { name: 'Open door', members: [{ id: viewer.id }] });
    const task = await made(insider.api, '/v1/tasks?expand=none', {
      name: 'Open task in a vault project',
      teamId: open,
      projectId: await made(insider.api, '/v1/projects?expand=none', {
        name: 'Vault project two',
        teamIds: [vault],
      }),
    });
    const seen = await viewer.api.get(`/v1/tasks/${task}`);
    assert.equal(seen.status, 200);
    const text = JSON.stringify(seen.body);
    assert.equal(text.includes('Vault'), false, text);
    const insiderView = JSON.stringify((await insider.api.get(`/v1/tasks/${task}`)).body);
    assert.equal(insiderView.includes('Vault project two'), true);
  });

  test('ids of things out of sight, in bodies and filters, read as missing ones', async () => {
    const uses = (id: string) => [
      viewer.api.post('/v1/tasks?expand=none', { name: 'Probe', teamId: id }),
      viewer.api.post('/v1/tasks?expand=none', { id, name: 'Probe' }),
      viewer.api.post('/v1/posts', { entityType: 'task', entityId: id, content: 'Probe' }),
      viewer.api.get(`/v1/tasks/search?teamId=${id}`),
      viewer.api.get(`/v1/tasks/search?projectId=${id}`),
      viewer.api.get(`/v1/documents/search?teamId=${id}`),
      viewer.api.get(`/v1/posts/list?entityType=task&entityId=${id}`),
    ];
    const missing = (await Promise.all(uses(MISSING))).map(normalized);
    // The baseline is real answers: refusals naming the field, and empty searches.
    assert.deepEqual(
      missing.map((r) => r.status),
      [400, 404, 404, 200, 200, 200, 404],
    );
    for (const id of [
      foreignResources.task!,
      foreignResources.team!,
      foreignResources.project!,
      hiddenResources.task!,
      hiddenResources.team!,
      hiddenResources.project!,
    ]) {
      const got = (await Promise.all(uses(id))).map(normalized);
      // A probe's answer may name the id it was given; compare with that id put back.
      const named = JSON.parse(JSON.stringify(got).replaceAll(id, MISSING));
      assert.deepEqual(named, missing, `an id out of sight (${id}) reads differently from a missing one`);
    }
  });

  test('the live stream: nothing out of sight, by any filter; positions and ids from elsewhere read as junk', async () => {
    await f.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(f.app.server.address() as { port: number }).port}`;
    const token = (await f.owner.post('/v1/api-tokens', { name: 'stream', userId: viewer.id })).body.token;
    const problemOf = async (lastEventId: string) => {
      const s = await openStream(base, token, { lastEventId });
      const { requestId: _, ...body } = s.problem;
      return { status: s.status, body };
    };
    // Another workspace's position (a feed cursor, as an SSE id is) and event id.
    const theirs = await other.owner.get('/v1/events?limit=1');
    const theirCursor = (await other.owner.get('/v1/events?after=latest')).body.nextCursor;
    assert.deepEqual(
      await problemOf(theirCursor),
      await problemOf('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    );
    assert.deepEqual(await problemOf(theirs.body.data[0].id), await problemOf(MISSING));

    const opened = await Promise.all(
      [
        '',
        `teamId=${vault}`,
        `teamId=${theirTeam}`,
        `projectId=${hiddenResources.project}`,
        `projectId=${foreignResources.project}`,
      ].map((query) => openStream(base, token, { query })),
    );
    const [all, ...filtered] = opened;
    for (const s of opened) assert.equal(s.status, 200);
    // Changes out of sight (the vault's, the other workspace's), then one the viewer sees.
    await made(insider.api, '/v1/tasks?expand=none', {
      name: 'Vault change',
      teamId: vault,
      projectId: hiddenResources.project,
    });
    await made(other.owner, '/v1/tasks?expand=none', {
      name: 'Their change',
      teamId: theirTeam,
      projectId: foreignResources.project,
    });
    const seen = await made(insider.api, '/v1/teams', { name: 'Seen by all' });
    const first = await all!.nextEvent();
    assert.deepEqual([first.event, JSON.parse(first.data!).entityId], ['team.created', seen]);
    // Each filtered stream moves past those changes with nothing sent: the ids it gets come alone, in
    // heartbeats, up to the position of the change it saw last.
    for (const s of filtered) {
      let frame: Frame;
      do {
        frame = await s.next();
        assert.ok(['stream open', 'heartbeat'].includes(frame.comments[0]!), JSON.stringify(frame));
        assert.equal(frame.data, undefined, JSON.stringify(frame));
      } while (frame.id !== first.id);
    }
    for (const s of opened) s.close();
    await closeConnections();
  });
});
