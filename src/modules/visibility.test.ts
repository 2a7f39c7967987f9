// One visibility rule per resource, through every indirect path (docs/api.md "Who sees what"): a
// related-name filter, an id filter, an expansion or a total never reveals what the caller cannot
// see. Runs as a member and as a guest, on each database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, setup } from '../test/helpers.ts';
import { type Kind, RESOURCES } from './registry.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const guest = await f.newUser('guest', 'Gus Guest');

async function add(url: string, body: Record<string, unknown>) {
  const res = await f.owner.post(url, body);
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return res.body;
}

// PUB: a workspace team the guest belongs to. SEC: a private team of the owner alone.
const pub = await add('/v1/teams', {
  name: 'Public Plaza',
  members: [{ id: guest.id, role: 'member' }],
});
const sec = await add('/v1/teams', { name: 'Secretive Falcon', privacy: 'private' });
const hidden = await add('/v1/projects', { name: 'Hidden Heron', teamId: sec.id });
const mixed = await add('/v1/projects', { name: 'Mixed Bag', teamIds: [pub.id, sec.id] });
const open = await add('/v1/projects', { name: 'Open Orchard', teamId: pub.id });
// Tasks the member and guest see (team PUB), one of them in the hidden project.
const inHidden = await add('/v1/tasks', { name: 'Heron feeding', teamId: pub.id, projectId: hidden.id });
await add('/v1/tasks', { name: 'Bag packing', teamId: pub.id, projectId: mixed.id });
await add('/v1/tasks', { name: 'Orchard picking', teamId: pub.id, projectId: open.id });
const sweeping = await add('/v1/tasks', { name: 'Plaza sweeping', teamId: pub.id });
// Tasks they do not see: in SEC, and a private one of the owner's in PUB.
const falcon = await add('/v1/tasks', { name: 'Falcon training', teamId: sec.id, projectId: mixed.id });
await add('/v1/tasks', { name: 'Heron secret', teamId: sec.id, projectId: hidden.id });
await add('/v1/tasks', { name: 'Plaza private', teamId: pub.id, visibility: 'private' });

// Documents: one they see, one in the hidden team, one private of the owner's in the visible team.
const guide = await add('/v1/documents', { name: 'Plaza guide', teamId: pub.id });
const falconDoc = await add('/v1/documents', { name: 'Falcon manual', teamId: sec.id });
const privateDoc = await add('/v1/documents', { name: 'Plaza diary', teamId: pub.id, visibility: 'private' });
// A post on what they see, and posts on what they cannot see.
const onGuide = await add('/v1/posts', { entityType: 'document', entityId: guide.id, content: 'Notes' });
const onFalcon = await add('/v1/posts', { entityType: 'task', entityId: falcon.id, content: 'Talons' });
const onDiary = await add('/v1/posts', {
  entityType: 'document',
  entityId: privateDoc.id,
  content: 'Dear diary',
});
// Templates: of an area the guest belongs to, and of a private area of the owner alone.
const openArea = await add('/v1/areas', { name: 'Open Area', members: [{ id: guest.id, role: 'member' }] });
const secretArea = await add('/v1/areas', { name: 'Secret Area', privacy: 'private' });
const openTemplate = await add('/v1/task-templates', { name: 'Open template', areaId: openArea.id });
const hiddenTemplate = await add('/v1/task-templates', { name: 'Hidden template', areaId: secretArea.id });
const openPlan = await add('/v1/project-templates', { name: 'Open plan', ownedByAreaId: openArea.id });
const hiddenPlan = await add('/v1/project-templates', {
  name: 'Hidden plan',
  ownedByAreaId: secretArea.id,
  areaIds: [openArea.id],
});

/**
 * For each resource of the registry (modules/registry.ts), one thing the member and the guest see
 * and one they do not; null only for a resource with neither id routes nor events (users). Typed by
 * the registry's kinds, so a new resource fails the typecheck until it has its pair here.
 */
const seenAndHidden: Record<Kind, { seen: string; hidden: string } | null> = {
  task: { seen: sweeping.id, hidden: falcon.id },
  project: { seen: open.id, hidden: hidden.id },
  document: { seen: guide.id, hidden: privateDoc.id },
  post: { seen: onGuide.id, hidden: onDiary.id },
  team: { seen: pub.id, hidden: sec.id },
  area: { seen: openArea.id, hidden: secretArea.id },
  task_template: { seen: openTemplate.id, hidden: hiddenTemplate.id },
  project_template: { seen: openPlan.id, hidden: hiddenPlan.id },
  user: null,
};

/** The ids in the data of every event the caller's feed shows, by entity type. */
async function eventData(api: Client): Promise<Map<string, Set<string>>> {
  const ids = new Map<string, Set<string>>();
  let cursor: string | undefined;
  for (;;) {
    const res = await api.get(`/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const event of res.body.data as { type: string; data: { id: string } }[]) {
      const kind = event.type.slice(0, event.type.indexOf('.'));
      ids.set(kind, (ids.get(kind) ?? new Set()).add(event.data.id));
    }
    if (!res.body.hasMore) return ids;
    cursor = res.body.nextCursor;
  }
}

/**
 * Waits until the owner's feed shows an event of every fixture. On PostgreSQL the feed stops before
 * the oldest transaction still running anywhere on the server (events/stream.ts), which another test
 * file may hold open for a moment; once the owner sees them all, every reader's feed reaches them.
 */
async function feedSettled(): Promise<void> {
  const fixtures = Object.values(seenAndHidden).flatMap((pair) => (pair ? [pair.seen, pair.hidden] : []));
  for (let attempt = 0; ; attempt++) {
    const shown = new Set([...(await eventData(f.owner)).values()].flatMap((ids) => [...ids]));
    if (fixtures.every((id) => shown.has(id))) return;
    assert.ok(attempt < 100, 'the feed never showed every fixture');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function walk(api: Client, url: string): Promise<{ names: string[]; total: number }> {
  const names: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const res = await api.get(`${url}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
    total = res.body.total;
    names.push(...res.body.data.map((x: { name: string }) => x.name));
    cursor = res.body.nextCursor;
  } while (cursor);
  return { names: names.sort(), total };
}

for (const [who, caller] of [
  ['member', member],
  ['guest', guest],
] as const) {
  describe(`as a ${who}`, () => {
    test('every resource of the registry: its hidden thing is 404 and absent from the event feed', async () => {
      await feedSettled();
      const events = await eventData(caller.api);
      for (const { kind, path, events: types } of RESOURCES) {
        if (path === null && types.length === 0) continue;
        const pair = seenAndHidden[kind];
        assert.ok(pair, `${kind} has no fixture in visibility.test.ts`);
        if (path) {
          assert.equal((await caller.api.get(`/v1/${path}/${pair.hidden}`)).status, 404, `hidden ${kind}`);
          assert.equal((await caller.api.get(`/v1/${path}/${pair.seen}`)).status, 200, `seen ${kind}`);
        }
        if (types.length > 0) {
          const ids = events.get(kind) ?? new Set();
          assert.ok(ids.has(pair.seen), `no event shows the ${kind} the ${who} sees`);
          assert.equal(ids.has(pair.hidden), false, `an event shows a hidden ${kind}`);
        }
      }
    });

    test('a hidden project name finds nothing, and tasks in it show no project', async () => {
      const found = await walk(caller.api, '/v1/tasks/search?expand=none&projectName=heron');
      assert.deepEqual(found, { names: [], total: 0 });
      const task = await caller.api.get(`/v1/tasks/${inHidden.id}?expand=project`);
      assert.equal(task.status, 200);
      assert.equal(task.body.project, null);
      // The visible project name still works.
      const orchard = await walk(caller.api, '/v1/tasks/search?expand=none&projectName=orchard');
      assert.deepEqual(orchard, { names: ['Orchard picking'], total: 1 });
    });

    test("a hidden team's name or id does not find projects it shares with a visible team", async () => {
      const byName = await walk(caller.api, '/v1/projects/search?expand=none&teamName=secretive');
      assert.deepEqual(byName, { names: [], total: 0 });
      const byId = await caller.api.get(`/v1/projects/list?expand=none&includeTotal=true&teamId=${sec.id}`);
      assert.equal(byId.status, 200);
      assert.deepEqual([byId.body.data, byId.body.total], [[], 0]);
      const tasks = await walk(caller.api, '/v1/tasks/search?expand=none&teamName=secretive');
      assert.deepEqual(tasks, { names: [], total: 0 });
      const plaza = await walk(caller.api, '/v1/projects/search?expand=none&teamName=plaza');
      assert.deepEqual(plaza, { names: ['Mixed Bag', 'Open Orchard'], total: 2 });
    });

    test('a shared project shows only the teams the caller sees', async () => {
      const res = await caller.api.get(`/v1/projects/${mixed.id}?expand=teams`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.teamIds, [pub.id]);
      assert.deepEqual(
        res.body.teams.map((t: { id: string }) => t.id),
        [pub.id],
      );
      assert.equal((await caller.api.get(`/v1/projects/${hidden.id}`)).status, 404);
    });

    test('totals equal what a full walk returns, for every filter', async () => {
      const cases: [string, string[]][] = [
        [
          '/v1/tasks/search?expand=none',
          ['Bag packing', 'Heron feeding', 'Orchard picking', 'Plaza sweeping'],
        ],
        [`/v1/tasks/search?expand=none&projectId=${mixed.id}`, ['Bag packing']],
        [`/v1/tasks/search?expand=none&projectId=${hidden.id}`, ['Heron feeding']],
        [`/v1/tasks/search?expand=none&teamId=${sec.id}`, []],
        ['/v1/tasks/search?expand=none&name=heron', ['Heron feeding']],
        [
          '/v1/tasks/search?expand=none&name=plaza&projectName=bag&matchMode=any',
          ['Bag packing', 'Plaza sweeping'],
        ],
        ['/v1/projects/search?expand=none', ['Mixed Bag', 'Open Orchard']],
        ['/v1/projects/search?expand=none&name=heron', []],
        ['/v1/teams/search?expand=none', ['Public Plaza']],
      ];
      for (const [url, names] of cases) {
        const found = await walk(caller.api, url);
        assert.deepEqual(found.names, names, url);
        assert.equal(found.total, names.length, `total of ${url}`);
      }
      const list = await caller.api.get('/v1/projects/list?expand=none&includeTotal=true');
      assert.equal(list.body.total, list.body.data.length);
      assert.equal(list.body.total, 2);
    });

    test('documents and the posts on hidden things: get, search, totals, filters', async () => {
      assert.deepEqual(await walk(caller.api, '/v1/documents/search?expand=none'), {
        names: ['Plaza guide'],
        total: 1,
      });
      assert.deepEqual(await walk(caller.api, '/v1/documents/search?expand=none&teamName=falcon'), {
        names: [],
        total: 0,
      });
      assert.deepEqual(await walk(caller.api, `/v1/documents/search?expand=none&teamId=${sec.id}`), {
        names: [],
        total: 0,
      });
      assert.deepEqual(await walk(caller.api, '/v1/documents/search?expand=none&name=diary&includeDeleted'), {
        names: [],
        total: 0,
      });
      for (const url of [
        `/v1/documents/${falconDoc.id}`,
        `/v1/documents/${privateDoc.publicId}`,
        `/v1/posts/${onFalcon.id}`,
        `/v1/posts/${onDiary.publicId}`,
        `/v1/posts/${onDiary.id}/replies`,
        `/v1/posts/list?entityType=task&entityId=${falcon.id}`,
        `/v1/posts/list?entityType=document&entityId=${privateDoc.id}`,
      ]) {
        assert.equal((await caller.api.get(url)).status, 404, url);
      }
      const reply = await caller.api.post('/v1/posts', {
        entityType: 'document',
        entityId: privateDoc.id,
        content: 'Peek',
      });
      assert.equal(reply.status, 404);
    });

    test('templates of hidden areas are absent and 404, and cannot be used', async () => {
      const names = async (url: string) =>
        (await caller.api.get(url)).body.data.map((t: { name: string }) => t.name);
      assert.deepEqual(await names('/v1/task-templates?includeDeleted=true'), ['Open template']);
      assert.deepEqual(await names(`/v1/task-templates?areaId=${secretArea.id}`), []);
      assert.deepEqual(await names('/v1/project-templates?includeDeleted=true'), ['Open plan']);
      assert.deepEqual(await names(`/v1/project-templates?areaId=${openArea.id}`), ['Open plan']);
      for (const url of [
        `/v1/task-templates/${hiddenTemplate.id}`,
        `/v1/project-templates/${hiddenPlan.publicId}`,
      ]) {
        assert.equal((await caller.api.get(url)).status, 404, url);
      }
      const made = await caller.api.post(`/v1/task-templates/${hiddenTemplate.id}/create-task`, {});
      assert.equal(made.status, 404);
      const project = await caller.api.post(`/v1/project-templates/${hiddenPlan.id}/create-project`, {});
      assert.equal(project.status, 404);
    });
  });
}
