// Request transactions that wait at the same moment share one commit on SQLite (group-commit.ts); on
// PostgreSQL each keeps its own. The outcomes a caller sees are the same on both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { onPostgres, openTestDatabase, setup } from '../test/helpers.ts';
import type { Database } from './index.ts';
import { migrateToLatest } from './migrate.ts';
import { groupCommitOf, type Transaction, transaction } from './transaction.ts';

async function withDatabase(fn: (database: Database) => Promise<void>): Promise<void> {
  const { database, drop } = await openTestDatabase();
  try {
    await migrateToLatest(database);
    await fn(database);
  } finally {
    await drop();
  }
}

async function keys(database: Database): Promise<string[]> {
  const rows = await database.db.selectFrom('instance_settings').select('key').orderBy('key').execute();
  return rows.map((r) => r.key).filter((k) => k.startsWith('g-'));
}

const put = (tx: Transaction, key: string) =>
  tx.db.insertInto('instance_settings').values({ key, value: '1' }).execute();

/** Starts `n` grouped transactions at once (all queued before the first runs), settled in order. */
function startAll(database: Database, units: ((tx: Transaction, i: number) => Promise<string>)[]) {
  return Promise.allSettled(
    units.map((unit, i) => transaction(database, (tx) => unit(tx, i), { group: true })),
  );
}

test('transactions queued together commit together; each answered after the commit, hooks included', async () => {
  await withDatabase(async (database) => {
    const group = groupCommitOf(database.db);
    const before = { groups: group.groups, units: group.units };
    const hooks: string[] = [];
    const results = await startAll(
      database,
      Array.from({ length: 10 }, () => async (tx, i) => {
        await put(tx, `g-${i}`);
        tx.afterCommit(() => hooks.push(`g-${i}`));
        return `done ${i}`;
      }),
    );
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason)),
      Array.from({ length: 10 }, (_, i) => `done ${i}`),
    );
    assert.equal(hooks.length, 10);
    assert.equal((await keys(database)).length, 10);
    if (onPostgres) {
      // PostgreSQL has a connection per transaction and its own commit: nothing is grouped.
      assert.deepEqual({ groups: group.groups, units: group.units }, before);
    } else {
      assert.deepEqual(
        { groups: group.groups - before.groups, units: group.units - before.units },
        { groups: 1, units: 10 },
      );
    }
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
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      ['unit 0 failed', 'done 1', 'done 2', 'unit 3 failed', 'done 4', 'done 5', 'done 6', 'unit 7 failed'],
    );
    assert.deepEqual(await keys(database), ['g-1', 'g-2', 'g-4', 'g-5', 'g-6']);
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
    const outcome = results.map((r) => r.status);
    if (onPostgres) {
      // Each its own transaction: only the one that rolled itself back is lost, and its commit says so
      // (PostgreSQL commits nothing after a rollback; the unit's answer is still "done").
      assert.deepEqual(outcome, ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      assert.deepEqual(await keys(database), ['g-0', 'g-1', 'g-3']);
    } else {
      assert.deepEqual(outcome, ['rejected', 'rejected', 'rejected', 'fulfilled']);
      // The fourth ran in the next group, alone.
      assert.deepEqual(await keys(database), ['g-3']);
    }
  });
});

test('concurrent creates through HTTP: every one 201, every one readable, publicIds distinct', async () => {
  const { owner, database } = await setup();
  const group = groupCommitOf(database.db);
  const team = await owner.post('/v1/teams', { name: 'Group', publicId: 'GRP' });
  assert.equal(team.status, 201);
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
  // Thirty requests in flight at once: on SQLite some shared a commit, on PostgreSQL none is grouped.
  if (onPostgres) assert.deepEqual([group.groups, group.units], [0, 0]);
  else assert.ok(group.units > group.groups, `${group.units} units in ${group.groups} groups`);
  const listed = await owner.get(`/v1/tasks/search?teamId=${team.body.id}&limit=100&expand=none`);
  assert.equal(listed.status, 200);
  assert.equal(listed.body.total, 30);
  assert.deepEqual(
    new Set(listed.body.data.map((t: { id: string }) => t.id)),
    new Set(created.map((r) => r.body.id)),
  );
});
