import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase } from '../test/helpers.ts';
import { isConstraintViolation, isUniqueViolation } from './errors.ts';
import { migrateToLatest } from './migrate.ts';

test('a duplicate key is recognized as a unique violation on this database', async () => {
  const { database, drop } = await openTestDatabase();
  try {
    await migrateToLatest(database);
    await database.db.insertInto('instance_settings').values({ key: 'k', value: '1' }).execute();
    const error = await database.db
      .insertInto('instance_settings')
      .values({ key: 'k', value: '2' })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(error, 'the duplicate insert must fail');
    assert.equal(isUniqueViolation(error), true);
    assert.equal(isConstraintViolation(error), true);
    assert.equal(isUniqueViolation(new Error('other')), false);
  } finally {
    await drop();
  }
});

test('foreign-key and check violations are recognized as constraint violations on this database', async () => {
  const { database, drop } = await openTestDatabase();
  const failure = (run: () => Promise<unknown>) =>
    run().then(
      () => null,
      (e: unknown) => e,
    );
  try {
    await migrateToLatest(database);
    const missing = '00000000-0000-4000-8000-000000000000';
    const foreign = await failure(() =>
      database.db
        .insertInto('group_members')
        .values({
          workspace_id: missing,
          group_id: missing,
          user_id: missing,
          role: 'member',
          created_at: 'now',
        })
        .execute(),
    );
    assert.ok(foreign, 'the dangling reference must fail');
    assert.equal(isConstraintViolation(foreign), true);
    // No table has a check constraint today; one made for the test, on one connection.
    const check = await failure(() =>
      database.db.transaction().execute(async (trx) => {
        await sql`create temporary table checked (n integer check (n > 0))`.execute(trx);
        await sql`insert into checked (n) values (0)`.execute(trx);
      }),
    );
    assert.ok(check, 'the checked insert must fail');
    assert.equal(isConstraintViolation(check), true);
    assert.equal(isConstraintViolation(new Error('other')), false);
  } finally {
    await drop();
  }
});
