// Locks for values derived from what other rows hold (a next position, a free code or slug): two
// transactions that read the same rows at once would derive the same value. Holding the workspace's
// lock on that kind of value from the read to the commit makes them derive one after the other, as
// SQLite, which runs one writer at a time, always does.
import { sql } from 'kysely';
import type { Context } from '../context.ts';

/** What is derived under a lock: one name per kind of value (any text would do; these are the uses). */
export type DerivedValue =
  | 'groups.public_id'
  | 'project_statuses.position'
  | 'projects.slug'
  | 'documents.slug';

/**
 * Takes the workspace's lock on `value` until the transaction ends (PostgreSQL: a transaction-level
 * advisory lock keyed by the workspace and the value's name; SQLite: nothing, writers are serialized).
 * Call it before reading what the value is derived from, inside the transaction that writes it.
 */
export async function lockDerived(
  ctx: Pick<Context, 'db' | 'dialect' | 'workspace'>,
  value: DerivedValue,
): Promise<void> {
  if (ctx.dialect !== 'postgres') return;
  // Two 32-bit keys; a collision of the hashes would only make two unrelated writers wait in turn.
  await sql`select pg_advisory_xact_lock(hashtext(${ctx.workspace.id}), hashtext(${value}))`.execute(ctx.db);
}
