// `*.updated` events say what changed (docs/integrations.md "The payload"): the fields the update changed,
// with their values before it, written by the service in the same statement as the event row, as JSON
// text (an object keyed by the API's field names). Null on every other event, and on `*.updated` events
// recorded before this migration (their payload's previousAttributes is then null).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await sql`alter table events add column previous_attributes text`.execute(db);
}
