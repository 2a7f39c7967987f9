import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../db/migrate.ts';
import { openTestDatabase } from '../test/helpers.ts';
import { isAfter } from './stream.ts';

// SQLite cannot seek an index with a row-value comparison: reading after a place scanned every event
// of the type before it, a cost that grew with the stream (15 ms a read at 200,000 events).
test('reading after a place seeks the stream index on SQLite (equality on tx, range on seq)', async () => {
  const { database, drop } = await openTestDatabase('sqlite');
  after(drop);
  await migrateToLatest(database);
  const { sql: text } = database.db
    .selectFrom('events')
    .select(['tx', 'seq'])
    .where('workspace_id', '=', 'w')
    .where('type', '=', 'task.created')
    .where(isAfter('sqlite', '', 0, 5))
    .orderBy('tx')
    .orderBy('seq')
    .limit(20)
    .compile();
  // Unbound parameters are null to EXPLAIN; the plan is what matters.
  const plan = await sql<{ detail: string }>`explain query plan ${sql.raw(text)}`.execute(database.db);
  assert.deepEqual(
    plan.rows.map((r) => r.detail),
    [
      'SEARCH events USING COVERING INDEX events_stream_by_type (workspace_id=? AND type=? AND tx=? AND seq>?)',
    ],
  );
});
