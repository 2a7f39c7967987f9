// Migrations on a PostgreSQL database that other installations (or test files) share: Kysely's
// migrator reads every schema's tables to find its own, and a schema dropped meanwhile fails that read
// (migrate.ts droppedMeanwhile). Seen as "schema … does not exist" in test files' setup while other
// files dropped theirs. And what `cairn migrate --dry-run` reports, on both databases, with the
// migrations that need older processes stopped first.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { openTestDatabase } from '../test/helpers.ts';
import { openDatabase } from './index.ts';
import { MIGRATION_NAMES, migrateToLatest, migrateUpTo, migrationStatus } from './migrate.ts';

const url = process.env.TEST_POSTGRES_URL;
const skip = (process.env.CAIRN_TEST_DATABASE !== 'postgres' || !url) && 'a PostgreSQL pass only';

test('migrating while other schemas are dropped runs every migration once', { skip }, async () => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const tag = randomBytes(4).toString('hex');
  const others = Array.from({ length: 40 }, (_, i) => `cairn_gone_${tag}_${i}`);
  for (const other of others) await admin.query(`create schema ${other}; create table ${other}.t (a int)`);
  const schema = `cairn_test_${tag}`;
  await admin.query(`create schema ${schema}`);
  const database = openDatabase(url!, { schema, poolSize: 2 });
  try {
    const dropping = (async () => {
      for (const other of others) await admin.query(`drop schema ${other} cascade`);
    })();
    const { applied } = await migrateToLatest(database);
    await dropping;
    assert.deepEqual(applied, [...MIGRATION_NAMES]);
    assert.deepEqual((await migrateToLatest(database)).applied, []);
  } finally {
    await database.close();
    for (const other of others) await admin.query(`drop schema if exists ${other} cascade`);
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
});

test('migrationStatus lists what would run, and runs nothing', async () => {
  const { database, drop } = await openTestDatabase();
  try {
    // A fresh database has no older process to stop: nothing is offline.
    const all = { applied: [], pending: [...MIGRATION_NAMES], offline: [] };
    assert.deepEqual(await migrationStatus(database), all);
    assert.deepEqual(await migrationStatus(database), all);
    const before = MIGRATION_NAMES.indexOf('0020_uuid_ids');
    await migrateUpTo(database, MIGRATION_NAMES[before - 1]!);
    assert.deepEqual(await migrationStatus(database), {
      applied: MIGRATION_NAMES.slice(0, before),
      pending: MIGRATION_NAMES.slice(before),
      offline: database.dialect === 'postgres' ? ['0020_uuid_ids'] : [],
    });
    await migrateToLatest(database);
    assert.deepEqual(await migrationStatus(database), {
      applied: [...MIGRATION_NAMES],
      pending: [],
      offline: [],
    });
  } finally {
    await drop();
  }
});
