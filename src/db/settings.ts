// Instance-wide settings shared by every server process through the database (not per workspace).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/** The stored value of `key`, creating it with `make()` if no process has yet. */
async function ensureSetting(db: Kysely<DB>, key: string, make: () => string): Promise<string> {
  await db
    .insertInto('instance_settings')
    .values({ key, value: make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return row.value;
}

export function cursorSecret(db: Kysely<DB>): Promise<string> {
  return ensureSetting(db, 'cursor_secret', () => randomBytes(32).toString('base64url'));
}
