// Per-workspace counters for public ids. One UPDATE … RETURNING takes the next values atomically on
// both databases (a row lock on PostgreSQL; SQLite transactions are serialized), so concurrent creates
// never share a number and a number is never reused, even when its transaction rolls back later.
import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/** Reserves `count` consecutive values and returns the first. */
export async function nextValues(
  db: Kysely<DB>,
  workspaceId: string,
  name: string,
  count = 1,
): Promise<number> {
  const take = () =>
    db
      .updateTable('counters')
      .set((eb) => ({ value: eb('value', '+', count) }))
      .where('workspace_id', '=', workspaceId)
      .where('name', '=', name)
      .returning('value')
      .executeTakeFirst();
  let row = await take();
  if (!row) {
    // First use in this workspace: make the row (a concurrent first use may too; the insert is idempotent).
    await db
      .insertInto('counters')
      .values({ workspace_id: workspaceId, name, value: 0 })
      .onConflict((oc) => oc.columns(['workspace_id', 'name']).doNothing())
      .execute();
    row = await take();
  }
  return Number(row!.value) - count + 1;
}
