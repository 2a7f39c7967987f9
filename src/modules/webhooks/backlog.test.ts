// The webhook backlog behind the metrics (cairn_webhook_events_waiting and
// cairn_webhook_oldest_waiting_event_age_seconds, docs/operations.md): the events each active
// subscription covers after its place, counted up to WAITING_CAP each, and the oldest one's time. No
// worker runs here, so nothing is delivered and every event a subscription covers stays waiting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setup } from '../../test/helpers.ts';
import { backlog, WAITING_CAP } from './repository.ts';

const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const read = () => backlog(f.database.db, f.database.dialect);

/** The backlog once it reaches `waiting` (on PostgreSQL an event is read once settled, not at commit). */
async function settledAt(waiting: number) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const now = await read();
    if (now.waiting === waiting || Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function subscribe(event: string) {
  const res = await f.owner.post('/v1/webhooks/subscribe', { hookUrl: 'http://127.0.0.1:9/hook', event });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string };
}

test('no subscription, nothing waits', async () => {
  assert.deepEqual(await read(), { waiting: 0, oldestAt: null });
});

test('each subscription counts the events it covers after its place, and the oldest is the first', async () => {
  const tasks = await subscribe('task.*');
  const created = await subscribe('team.created');
  const team = await f.owner.post('/v1/teams', { name: 'Backlog', publicId: 'BKL' });
  assert.equal(team.status, 201);
  const first = await f.owner.post('/v1/tasks', { name: 'One', teamId: team.body.id });
  await f.owner.post('/v1/tasks', { name: 'Two', teamId: team.body.id });
  await f.owner.post('/v1/tasks', { id: first.body.id, name: 'One, renamed' });
  // task.*: two creates and an update; team.created: the team. A subscription starts at the stream's
  // end, so nothing before it counts.
  const now = await settledAt(4);
  assert.equal(now.waiting, 4);
  assert.ok(now.oldestAt, 'an oldest event');
  assert.equal(
    Date.parse(now.oldestAt),
    Date.parse(team.body.createdAt),
    'the team.created event is the oldest',
  );

  // A disabled or removed subscription waits for nothing.
  assert.equal((await f.owner.delete(`/v1/webhooks/subscribe/${created.id}`)).status, 204);
  const after = await settledAt(3);
  assert.equal(after.waiting, 3);
  assert.equal(Date.parse(after.oldestAt!), Date.parse(first.body.createdAt));
  assert.equal((await f.owner.delete(`/v1/webhooks/subscribe/${tasks.id}`)).status, 204);
  assert.deepEqual(await read(), { waiting: 0, oldestAt: null });
});

test(`a subscription far behind counts ${WAITING_CAP}, so that a scrape stays cheap`, async () => {
  const all = await subscribe('*');
  const team = await f.owner.post('/v1/teams', { name: 'Many', publicId: 'MNY' });
  for (let i = 0; i < 11; i++) {
    const tasks = Array.from({ length: 100 }, (_, j) => ({ name: `Task ${i}-${j}`, teamId: team.body.id }));
    assert.equal((await f.owner.post('/v1/tasks/batch', { tasks })).status, 200);
  }
  assert.equal((await settledAt(WAITING_CAP)).waiting, WAITING_CAP);
  await f.owner.delete(`/v1/webhooks/subscribe/${all.id}`);
});

test(`a pattern counts its types together up to ${WAITING_CAP}, not each type to it`, async () => {
  const tasks = await subscribe('task.*');
  const team = await f.owner.post('/v1/teams', { name: 'Pattern', publicId: 'PTN' });
  const made: { id: string }[] = [];
  for (let i = 0; i < 6; i++) {
    const batch = Array.from({ length: 100 }, (_, j) => ({ name: `Made ${i}-${j}`, teamId: team.body.id }));
    const res = await f.owner.post('/v1/tasks/batch', { tasks: batch });
    assert.equal(res.status, 200);
    made.push(...(res.body.succeeded as { id: string }[]));
  }
  for (let i = 0; i < 6; i++) {
    const batch = made.slice(i * 100, (i + 1) * 100).map((t) => ({ id: t.id, name: `Renamed ${t.id}` }));
    assert.equal((await f.owner.post('/v1/tasks/batch', { tasks: batch })).status, 200);
  }
  // 600 task.created and 600 task.updated: each type under the cap, their sum over it.
  assert.equal((await settledAt(WAITING_CAP)).waiting, WAITING_CAP);
  await f.owner.delete(`/v1/webhooks/subscribe/${tasks.id}`);
});
