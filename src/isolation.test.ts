import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, setup } from './test/helpers.ts';

// Tenant and visibility isolation (issue 11), generated from the route table: every operation that
// takes an id in its path is called with an id that does not exist, one of another workspace, and
// (where the kind can be private) one behind a private team the caller is not in. The three answers
// must be the same: same status, same body (but for the request id), same headers. So a caller can
// never tell "hidden" or "elsewhere" from "missing", and learns nothing else either.

const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const viewer = await f.newUser('member', 'Vera Viewer');
const insider = await f.newUser('member', 'Ian Insider');
const guest = await f.newUser('guest', 'Gus Guest');

/** publicIds of what was made, by id (tasks have numbers, teams and projects short codes). */
const publicIds = new Map<string, string>();

async function made(as: Client, url: string, body: unknown): Promise<string> {
  const res = await as.post(url, body);
  assert.ok(res.status === 200 || res.status === 201, `${url}: ${JSON.stringify(res.body)}`);
  if (res.body.publicId !== undefined && res.body.publicId !== null)
    publicIds.set(res.body.id, String(res.body.publicId));
  return res.body.id;
}

/** One of each kind in a workspace, made by `as`, in team `teamId`. */
async function seedKinds(as: Client, teamId: string, areaId: string, hookBase: string) {
  const task = await made(as, '/v1/tasks?expand=none', { name: 'Iso task', teamId });
  return {
    tasks: task,
    projects: await made(as, '/v1/projects?expand=none', { name: 'Iso project', teamIds: [teamId] }),
    documents: await made(as, '/v1/documents?expand=none', { name: 'Iso doc', teamId }),
    posts: await made(as, '/v1/posts', { entityType: 'task', entityId: task, content: 'Iso post' }),
    teams: teamId,
    areas: areaId,
    'task-templates': await made(as, '/v1/task-templates', { name: 'Iso template', areaId }),
    'project-templates': await made(as, '/v1/project-templates', {
      name: 'Iso project template',
      ownedByAreaId: areaId,
    }),
    subscribe: await made(as, '/v1/webhooks/subscribe', {
      hookUrl: `${hookBase}/iso`,
      event: 'task.created',
    }),
    'api-tokens': await made(as, '/v1/api-tokens', { name: 'Iso token' }),
  };
}

const other = await f.newWorkspace('Elsewhere');
const theirTeam = await made(other.owner, '/v1/teams', { name: 'Theirs' });
const theirArea = await made(other.owner, '/v1/areas', { name: 'Their area' });
const foreign = await seedKinds(other.owner, theirTeam, theirArea, 'http://127.0.0.1:9');
const vault = await made(insider.api, '/v1/teams', { name: 'Vault', privacy: 'private' });
const vaultTask = await made(insider.api, '/v1/tasks?expand=none', { name: 'Vault task', teamId: vault });
const hidden: Record<string, string> = {
  tasks: vaultTask,
  projects: await made(insider.api, '/v1/projects?expand=none', { name: 'Vault project', teamIds: [vault] }),
  documents: await made(insider.api, '/v1/documents?expand=none', { name: 'Vault doc', teamId: vault }),
  posts: await made(insider.api, '/v1/posts', {
    entityType: 'task',
    entityId: vaultTask,
    content: 'Vault post',
  }),
  teams: vault,
};
const MISSING = '00000000-0000-4000-8000-00000000abcd';

/** The kind of thing a path's first id names: the collection segment before it. */
function kindOf(path: string): string | undefined {
  const m = /\/v1\/(?:webhooks\/)?([a-z-]+)\/\{id\}/.exec(path);
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

  for (const as of [
    ['a member', viewer.api],
    ['a guest', guest.api],
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
          ['a private team', hidden[op.kind]],
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

  test('names of things out of sight are not found by any search, and totals do not count them', async () => {
    const searches = (word: string) => [
      viewer.api.get(`/v1/tasks/search?name=${word}`),
      viewer.api.get(`/v1/projects/search?name=${word}`),
      viewer.api.get(`/v1/documents/search?name=${word}`),
      viewer.api.get(`/v1/teams/search?name=${word}`),
      guest.api.get(`/v1/tasks/search?name=${word}`),
    ];
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
      foreign.tasks,
      foreign.teams,
      foreign.projects,
      hidden.tasks!,
      hidden.teams!,
      hidden.projects!,
    ]) {
      const got = (await Promise.all(uses(id))).map(normalized);
      // A probe's answer may name the id it was given; compare with that id put back.
      const named = JSON.parse(JSON.stringify(got).replaceAll(id, MISSING));
      assert.deepEqual(named, missing, `an id out of sight (${id}) reads differently from a missing one`);
    }
  });
});
