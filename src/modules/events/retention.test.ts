// Positions older than the retention: the pruner records how far it deleted each workspace's stream,
// and the feed answers a position before that with 400 cursor_expired instead of skipping what was
// deleted. Its own file: it moves this process's clock days ahead and prunes the whole database.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advanceClock, now } from '../../clock.ts';
import { pruneEvents } from '../../events/prune.ts';
import { type Client, problem, setup } from '../../test/helpers.ts';

const f = await setup();
const DAY = 86_400_000;
const team = (await f.owner.post('/v1/teams', { name: 'Retention' })).body;

interface Page {
  data: { id: string; type: string; data: { id: string; name?: string } }[];
  nextCursor: string;
  hasMore: boolean;
}

/** GET /v1/events?<qs>, waiting (up to 5 s) until it holds `want` events: PostgreSQL's feed horizon. */
async function feed(qs: string, want = 0, as: Client = f.owner): Promise<Page> {
  const until = Date.now() + 5000;
  for (;;) {
    const res = await as.get(`/v1/events?limit=100&${qs}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (res.body.data.length >= want || Date.now() > until) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const task = (name: string) => f.owner.post('/v1/tasks?expand=none', { name, teamId: team.id });

test('a position older than what was pruned is 400 cursor_expired; one after it reads on', async () => {
  const other = await f.newWorkspace('Quiet');
  const otherStart = (await feed('after=latest', 0, other.owner)).nextCursor;
  const before = (await feed('after=latest')).nextCursor;
  const old = (await task('Old')).body;
  const [oldEvent] = (await feed(`cursor=${before}`, 1)).data;
  assert.equal(oldEvent?.data.id, old.id);
  const between = (await feed(`cursor=${before}`, 1)).nextCursor; // after the old event

  advanceClock(8 * DAY);
  const fresh = (await task('Fresh')).body;
  await feed(`cursor=${between}`, 1);
  const pruned = await pruneEvents(f.database.db, new Date(Date.parse(now()) - 7 * DAY).toISOString());
  assert.ok(pruned >= 2, `pruned ${pruned}`); // the team's and the old task's events at least

  // The position before the pruned event, as cursor and as after: the reader would miss it.
  for (const param of ['cursor', 'after']) {
    const body = problem(await f.owner.get(`/v1/events?${param}=${before}`), 400, 'cursor_expired');
    assert.deepEqual(body.errors, [
      { path: `/query/${param}`, message: 'older than the events kept; read everything again' },
    ]);
    assert.match(body.detail, /no longer kept \(they are kept 7 days\)/);
  }
  // With a type filter that the pruned event did not match, too: the position is what expired.
  problem(await f.owner.get(`/v1/events?type=document.created&cursor=${before}`), 400, 'cursor_expired');
  // The pruned event's id is unknown now: 400 at /query/after, as any unknown id.
  const unknown = problem(await f.owner.get(`/v1/events?after=${oldEvent!.id}`), 400, 'validation_failed');
  assert.equal(unknown.errors[0].path, '/query/after');

  // At or after the last pruned event nothing was missed: the page is what came since.
  const after = await feed(`cursor=${between}`, 1);
  assert.deepEqual(
    after.data.map((e) => [e.type, e.data.id]),
    [['task.created', fresh.id]],
  );
  // Without a position: everything kept.
  assert.deepEqual(
    (await feed('', 1)).data.map((e) => e.data.id),
    [fresh.id],
  );
  // Another workspace, nothing of it pruned: its old position still reads.
  assert.deepEqual((await feed(`cursor=${otherStart}`, 0, other.owner)).data, []);

  // Pruning again (nothing older left) keeps the record: the old position stays expired.
  assert.equal(await pruneEvents(f.database.db, new Date(Date.parse(now()) - 7 * DAY).toISOString()), 0);
  problem(await f.owner.get(`/v1/events?cursor=${before}`), 400, 'cursor_expired');
});

test('a quiet install pruned of everything: new events come after every position held', async () => {
  const held = (await feed('after=latest')).nextCursor;
  advanceClock(8 * DAY);
  await pruneEvents(f.database.db, new Date(Date.parse(now()) - 7 * DAY).toISOString());
  // The newest event of the table stays (SQLite's rowid would start again below the held position).
  const left = await f.database.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(left.n), 1);
  const next = (await task('After the quiet')).body;
  assert.deepEqual(
    (await feed(`cursor=${held}`, 1)).data.map((e) => [e.type, e.data.id]),
    [['task.created', next.id]],
  );
});
