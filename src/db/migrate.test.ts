// Migrations on a PostgreSQL database that other installations (or test files) share: Kysely's
// migrator reads every schema's tables to find its own, and a schema dropped meanwhile fails that read
// (migrate.ts droppedMeanwhile). Seen as "schema … does not exist" in test files' setup while other
// files dropped theirs. And what `cairn migrate --dry-run` reports, on both databases.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { openTestDatabase } from '../test/helpers.ts';
import { openDatabase } from './index.ts';
import { MIGRATION_NAMES, migrateToLatest, migrationStatus } from './migrate.ts';

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
    assert.deepEqual(await migrationStatus(database), { applied: [], pending: [...MIGRATION_NAMES] });
    assert.deepEqual((await migrationStatus(database)).pending, [...MIGRATION_NAMES]);
    await migrateToLatest(database);
    assert.deepEqual(await migrationStatus(database), { applied: [...MIGRATION_NAMES], pending: [] });
  } finally {
    await drop();
  }
});
