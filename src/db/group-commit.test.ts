// Transactions that wait at the same moment share one commit (group-commit.ts): on SQLite all of them,
// on PostgreSQL those of one named queue. The outcomes a caller sees are the same on both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { onPostgres, setup, withDatabase } from '../test/helpers.ts';
import type { Database } from './index.ts';
import { groupStats, type Transaction, transaction } from './transaction.ts';

async function keys(database: Database): Promise<string[]> {
  const rows = await database.db.selectFrom('instance_settings').select('key').orderBy('key').execute();
  return rows.map((r) => r.key).filter((k) => k.startsWith('g-'));
}

const put = (tx: Transaction, key: string) =>
  tx.db.insertInto('instance_settings').values({ key, value: '1' }).execute();

/** Starts the units as transactions of one queue at once (all queued before the first runs). */
function startAll(
  database: Database,
  units: ((tx: Transaction, i: number) => Promise<string>)[],
  group: true | string = 'test',
) {
  return Promise.allSettled(units.map((unit, i) => transaction(database, (tx) => unit(tx, i), { group })));
}

const outcomes = (results: PromiseSettledResult<string>[]) =>
  results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message));

test('transactions of one queue commit together; each answered after the commit, hooks included', async () => {
  await withDatabase(async (database) => {
    const before = groupStats(database.db);
    const seen: string[] = [];
    const results = await startAll(
      database,
      Array.from({ length: 10 }, () => async (tx, i) => {
        await put(tx, `g-${i}`);
        seen.push(`ran ${i}`);
        tx.afterCommit(() => seen.push(`hook ${i}`));
        return `done ${i}`;
      }),
    );
    assert.deepEqual(
      outcomes(results),
      Array.from({ length: 10 }, (_, i) => `done ${i}`),
    );
    assert.equal((await keys(database)).length, 10);
    const after = groupStats(database.db);
    const grouped = { groups: after.groups - before.groups, units: after.units - before.units };
    assert.equal(grouped.units, 10);
    // All ten were queued before the first began: they share commits (one group, unless the machine
    // is slow enough for a group to reach its time bound), and a hook runs only after its commit.
    assert.ok(grouped.groups < 10, `${grouped.groups} groups`);
    assert.ok(seen.indexOf('hook 0') > seen.indexOf('ran 1'), seen.join(', '));
    for (let i = 0; i < 10; i++) assert.ok(seen.indexOf(`hook ${i}`) > seen.indexOf(`ran ${i}`));
  });
});

test('unnamed, they share a commit on SQLite (one writer) and keep their own on PostgreSQL', async () => {
  await withDatabase(async (database) => {
    const before = groupStats(database.db);
    const results = await startAll(
      database,
      Array.from({ length: 5 }, () => async (tx, i) => {
        await put(tx, `g-${i}`);
        return `done ${i}`;
      }),
      true,
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
    const after = groupStats(database.db);
    const grouped = { groups: after.groups - before.groups, units: after.units - before.units };
    // On SQLite all five in one group, or two when a busy machine has the first outlast the group's
    // time bound.
    if (onPostgres) assert.deepEqual(grouped, { groups: 0, units: 0 });
    else assert.ok(grouped.units === 5 && grouped.groups < 5, JSON.stringify(grouped));
  });
});

test('a failing transaction of a group rolls back alone, the first one too, with its own error', async () => {
  await withDatabase(async (database) => {
    const failAt = new Set([0, 3, 7]);
    const results = await startAll(
      database,
      Array.from({ length: 8 }, () => async (tx, i) => {
        await put(tx, `g-${i}`);
        // A unit that fails after writing, as a unique violation or a 404 half way would.
        if (failAt.has(i)) throw new Error(`unit ${i} failed`);
        return `done ${i}`;
      }),
    );
    assert.deepEqual(outcomes(results), [
      'unit 0 failed',
      'done 1',
      'done 2',
      'unit 3 failed',
      'done 4',
      'done 5',
      'done 6',
      'unit 7 failed',
    ]);
    assert.deepEqual(await keys(database), ['g-1', 'g-2', 'g-4', 'g-5', 'g-6']);
  });
});

test('a deadlock victim, first or later in its group, runs again in the next group', async () => {
  await withDatabase(async (database) => {
    const runs = new Map<number, number>();
    const results = await startAll(
      database,
      Array.from({ length: 4 }, () => async (tx, i) => {
        runs.set(i, (runs.get(i) ?? 0) + 1);
        await put(tx, `g-${i}-${runs.get(i)}`);
        // What PostgreSQL answers the transaction it picks to end a deadlock (errors.ts isRetryable).
        if ((i === 0 || i === 2) && runs.get(i) === 1)
          throw Object.assign(new Error('deadlock'), { code: '40P01' });
        return `done ${i}`;
      }),
    );
    assert.deepEqual(outcomes(results), ['done 0', 'done 1', 'done 2', 'done 3']);
    assert.deepEqual(Object.fromEntries(runs), { 0: 2, 1: 1, 2: 2, 3: 1 });
    // Each victim's first run was rolled back; its second run committed.
    assert.deepEqual(await keys(database), ['g-0-2', 'g-1-1', 'g-2-2', 'g-3-1']);
  });
});

test('a failed commit fails the units that ran in it, not a deadlock victim queued for the next group', async () => {
  await withDatabase(async (database) => {
    // A key checked at the commit, on both databases: the commit is what fails.
    await sql`create table g_parent (id integer primary key)`.execute(database.db);
    await sql`create table g_child (parent integer references g_parent (id) deferrable initially deferred)`.execute(
      database.db,
    );
    const runs = new Map<number, number>();
    const results = await startAll(
      database,
      Array.from({ length: 2 }, () => async (tx, i) => {
        runs.set(i, (runs.get(i) ?? 0) + 1);
        if (i === 0) await sql`insert into g_child (parent) values (1)`.execute(tx.db);
        else {
          await put(tx, `g-${i}-${runs.get(i)}`);
          if (runs.get(i) === 1) throw Object.assign(new Error('deadlock'), { code: '40P01' });
        }
        return `done ${i}`;
      }),
    );
    assert.equal(results[0]!.status, 'rejected');
    // Answered once: by its run in the next group, which committed.
    assert.deepEqual(outcomes(results).slice(1), ['done 1']);
    assert.deepEqual(Object.fromEntries(runs), { 0: 1, 1: 2 });
    assert.deepEqual(await keys(database), ['g-1-2']);
  });
});

test('a transaction that breaks the shared one fails its group whole: nothing of it is answered as done', async () => {
  await withDatabase(async (database) => {
    const results = await startAll(
      database,
      Array.from({ length: 4 }, () => async (tx, i) => {
        await put(tx, `g-${i}`);
        // Ends the transaction under the group's feet (what a disk I/O error does to SQLite's).
        if (i === 2) await sql`rollback`.execute(tx.db);
        return `done ${i}`;
      }),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected', 'fulfilled'],
    );
    // The fourth ran in the next group, alone.
    assert.deepEqual(await keys(database), ['g-3']);
  });
});

test('the last transaction of a group breaking it fails the group whole too', async () => {
  await withDatabase(async (database) => {
    const results = await startAll(
      database,
      Array.from({ length: 3 }, () => async (tx, i) => {
        await put(tx, `g-${i}`);
        if (i === 2) await sql`rollback`.execute(tx.db);
        return `done ${i}`;
      }),
    );
    // Three in one group, all refused; a slow machine may split them, so what holds whatever the
    // groups: an answer of done means a committed row, and the last one never committed.
    const kept = await keys(database);
    const answered = results.flatMap((r, i) => (r.status === 'fulfilled' ? [`g-${i}`] : []));
    assert.deepEqual(kept, answered);
    assert.ok(!kept.includes('g-2'));
    assert.equal(results[2]!.status, 'rejected');
  });
});

test("a group's savepoints: on PostgreSQL, each release goes with the next unit's start", async () => {
  const sent: string[] = [];
  await withDatabase(
    async (database) => {
      const before = groupStats(database.db);
      sent.length = 0;
      const results = await startAll(
        database,
        Array.from({ length: 6 }, () => async (tx, i) => {
          await put(tx, `g-${i}`);
          if (i === 3) throw new Error('unit 3 failed');
          return `done ${i}`;
        }),
      );
      assert.deepEqual(outcomes(results), [
        'done 0',
        'done 1',
        'done 2',
        'unit 3 failed',
        'done 4',
        'done 5',
      ]);
      assert.deepEqual(await keys(database), ['g-0', 'g-1', 'g-2', 'g-4', 'g-5']);
      const after = groupStats(database.db);
      // All six queued before the first began: one group, the first unit bare.
      assert.deepEqual(
        { groups: after.groups - before.groups, units: after.units - before.units },
        {
          groups: 1,
          units: 5,
        },
      );
    },
    { onStatement: (text) => sent.push(text) },
  );
  const savepoints = sent.filter((text) => /savepoint/.test(text));
  assert.deepEqual(
    savepoints,
    onPostgres
      ? [
          'savepoint unit',
          'release savepoint unit; savepoint unit',
          'release savepoint unit; savepoint unit',
          'rollback to savepoint unit; release savepoint unit',
          'savepoint unit',
          'release savepoint unit; savepoint unit',
          'release savepoint unit',
        ]
      : [
          ...['savepoint unit', 'release savepoint unit'],
          ...['savepoint unit', 'release savepoint unit'],
          ...['savepoint unit', 'rollback to savepoint unit', 'release savepoint unit'],
          ...['savepoint unit', 'release savepoint unit'],
          ...['savepoint unit', 'release savepoint unit'],
        ],
  );
});

test('concurrent creates through HTTP share commits: every one 201, every one readable, publicIds distinct', async () => {
  const { owner, database } = await setup();
  const team = await owner.post('/v1/teams', { name: 'Group', publicId: 'GRP' });
  assert.equal(team.status, 201);
  const before = groupStats(database.db);
  const created = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      owner.post('/v1/tasks?expand=none', { name: `Grouped ${i}`, teamId: team.body.id }),
    ),
  );
  assert.deepEqual(
    created.map((r) => r.status),
    created.map(() => 201),
  );
  assert.equal(new Set(created.map((r) => r.body.publicId)).size, 30);
  // Thirty creates in flight at once: some shared a commit (on PostgreSQL, through the workspace's
  // task-counter queue).
  const after = groupStats(database.db);
  const [groups, units] = [after.groups - before.groups, after.units - before.units];
  assert.equal(units, 30);
  assert.ok(groups < units, `${units} creates in ${groups} groups`);
  const listed = await owner.get(`/v1/tasks/search?teamId=${team.body.id}&limit=100&expand=none`);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.total, 30);
  assert.deepEqual(
    new Set(listed.body.data.map((t: { id: string }) => t.id)),
    new Set(created.map((r) => r.body.id)),
  );
});

test('idempotent creates share commits; on SQLite the key claimed and the answer kept do too', async () => {
  const { owner, database } = await setup();
  const team = await owner.post('/v1/teams', { name: 'Keys', publicId: 'KEY' });
  assert.equal(team.status, 201);
  const before = groupStats(database.db);
  const created = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      owner.post(
        '/v1/tasks?expand=none',
        { name: `Keyed ${i}`, teamId: team.body.id },
        { 'idempotency-key': `k-${i}` },
      ),
    ),
  );
  assert.deepEqual(
    created.map((r) => r.status),
    created.map(() => 201),
  );
  // A retry of each answers the same, from the kept answer.
  const again = await owner.post(
    '/v1/tasks?expand=none',
    { name: 'Keyed 3', teamId: team.body.id },
    { 'idempotency-key': 'k-3' },
  );
  assert.equal(again.status, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.body, created[3]!.body);
  const after = groupStats(database.db);
  const [groups, units] = [after.groups - before.groups, after.units - before.units];
  // SQLite: each create is three units (claim, change, answer) and the retry one (its claim, refused);
  // PostgreSQL groups only the changes, the key's writes being statements of their own.
  assert.equal(units, onPostgres ? 20 : 61);
  assert.ok(groups < units, `${units} units in ${groups} groups`);
});
