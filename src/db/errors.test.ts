import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestDatabase } from '../test/helpers.ts';
import { isUniqueViolation } from './errors.ts';
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
    assert.equal(isUniqueViolation(new Error('other')), false);
  } finally {
    await drop();
  }
});
