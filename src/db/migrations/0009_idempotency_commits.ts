// When the change an idempotent request made committed (in that change's own transaction), so that a
// retry after a crash between the commit and the storing of the answer is refused instead of doing
// the work a second time (http/idempotency.ts).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql.raw(`alter table idempotency_keys add column committed_at ${types(dialect).ts}`).execute(db);
}
