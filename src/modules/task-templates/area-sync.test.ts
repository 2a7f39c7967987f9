// What a team-keyed consumer sees of a task made from a template in an area (issue 23 §6, written up
// in docs/integrations.md "Syncing by time"): the event reaches whoever sees the area, keyed by
// `areaId`, never `teamId`; the search's `teamId` filter takes the area's id; nobody who cannot see the
// area gets either.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, problem, setup } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const guest = await f.newUser('guest', 'Gil Guest');
const eng = (
  await f.owner.post('/v1/teams', { name: 'Engineering', members: [{ id: member.id }, { id: guest.id }] })
).body;
const ops = (await f.owner.post('/v1/areas', { name: 'Operations' })).body;
const vault = (await f.owner.post('/v1/areas', { name: 'Vault', privacy: 'private' })).body;

/** The feed's position now, for a reader (its last page's nextCursor). */
async function position(as: Client): Promise<string> {
  let cursor = '';
  for (;;) {
    const res = await as.get(`/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) return cursor;
  }
}

type FeedEvent = { type: string; data: Record<string, unknown> & { id: string } };

/** Every event after a position, walking pages (a page may hold fewer while more follow: skipped events). */
async function eventsAfter(as: Client, start: string): Promise<FeedEvent[]> {
  const out: FeedEvent[] = [];
  let cursor = start;
  for (;;) {
    const res = await as.get(`/v1/events?limit=100&cursor=${cursor}`);
    assert.equal(res.status, 200);
    out.push(...res.body.data);
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) return out;
  }
}

/**
 * The events after a position once the one about `last` is among them. On PostgreSQL the feed shows
 * an event once every transaction older than it has ended, on the whole server (events/stream.ts
 * settled), so it is waited for rather than expected at once; what came before it is then all there.
 */
async function eventsThrough(as: Client, start: string, last: string): Promise<FeedEvent[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const events = await eventsAfter(as, start);
    if (events.some((e) => e.data.id === last)) return events;
    assert.ok(Date.now() < until, `no event about ${last} in the feed`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function makeFrom(areaId: string, name: string) {
  const template = (await f.owner.post('/v1/task-templates', { name, areaId })).body;
  const made = await f.owner.post(`/v1/task-templates/${template.id}/create-task?expand=none`, {});
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body;
}

const names = async (as: Client, qs: string) => {
  const res = await as.get(`/v1/tasks/search?expand=none&${qs}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.map((t: { name: string }) => t.name);
};

describe('a task made from a template in an area', () => {
  test('task.created reaches a member who sees the area, keyed by areaId, not teamId', async () => {
    const [ownerAt, memberAt] = [await position(f.owner), await position(member.api)];
    const task = await makeFrom(ops.id, 'Rotate keys');
    assert.equal(task.areaId, ops.id);
    assert.equal('teamId' in task, false);
    for (const [as, at] of [
      [f.owner, ownerAt],
      [member.api, memberAt],
    ] as const) {
      const created = (await eventsThrough(as, at, task.id)).filter((e) => e.type === 'task.created');
      assert.deepEqual(
        created.map((e) => e.data.id),
        [task.id],
      );
      const data = created[0]!.data;
      assert.equal(data.areaId, ops.id);
      assert.deepEqual((data.area as { id: string }).id, ops.id);
      assert.equal('teamId' in data, false);
      assert.equal('team' in data, false);
    }
  });

  test("the search's teamId takes the area's id; a team's id leaves it out; areaId is not a filter", async () => {
    await makeFrom(ops.id, 'Renew certificates');
    await f.owner.post('/v1/tasks', { name: 'Renew laptops', teamId: eng.id });
    assert.deepEqual(await names(member.api, `teamId=${ops.id}&name=renew`), ['Renew certificates']);
    assert.deepEqual(await names(member.api, `teamId=${eng.id}&name=renew`), ['Renew laptops']);
    assert.deepEqual(await names(member.api, 'teamName=operations'), [], 'teamName matches teams only');
    assert.deepEqual(await names(member.api, `teamId=${ops.id}&updatedSince=2000-01-01T00:00:00Z`), [
      'Renew certificates',
      'Rotate keys',
    ]);
    const area = problem(await member.api.get(`/v1/tasks/search?areaId=${ops.id}`), 400, 'validation_failed');
    assert.deepEqual(area.errors, [{ path: '/query/areaId', message: 'is not a known query parameter' }]);
  });

  test('who cannot see the area gets neither the event nor the task', async () => {
    const [memberAt, guestAt] = [await position(member.api), await position(guest.api)];
    const hidden = await makeFrom(vault.id, 'Vault audit');
    const seen = await makeFrom(ops.id, 'Ops audit');
    // Last, a task both see: once it is in a feed, so is whatever came before it.
    const marker = (await f.owner.post('/v1/tasks?expand=none', { name: 'Marker', teamId: eng.id })).body;
    // (Only these three: on PostgreSQL an earlier test's events may still come after a position.)
    const mine = [hidden.id, seen.id, marker.id];
    const ids = async (as: Client, at: string) =>
      (await eventsThrough(as, at, marker.id))
        .filter((e) => e.type === 'task.created' && mine.includes(e.data.id))
        .map((e) => e.data.id);
    // A member does not see a private area it is not in; a guest sees no group it is not in.
    assert.deepEqual(await ids(member.api, memberAt), [seen.id, marker.id]);
    assert.deepEqual(await ids(guest.api, guestAt), [marker.id]);
    assert.deepEqual(await names(member.api, `teamId=${vault.id}`), []);
    assert.deepEqual(await names(guest.api, `teamId=${ops.id}`), []);
    assert.deepEqual(await names(f.owner, `teamId=${vault.id}`), ['Vault audit']);
    assert.equal(hidden.areaId, vault.id);
  });
});
