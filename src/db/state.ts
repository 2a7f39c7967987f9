// State changes conditional on the current state (docs/api.md "Concurrent changes"): the expected
// state is part of the UPDATE's WHERE, so of several requests racing to make the same change exactly
// one changes a row, and only that one moves counters or writes an event.
import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/** Tables whose rows are archived by setting `archived_at`. */
type Archivable = 'groups' | 'projects';

/** Archives (`archived`: true) or unarchives a row if it is not already so; false when it was. */
export async function setArchived(
  db: Kysely<DB>,
  table: Archivable,
  workspaceId: string,
  id: string,
  archived: boolean,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({ archived_at: archived ? at : null, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('archived_at', archived ? 'is' : 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Tables whose rows are soft-deleted by setting `deleted_at`, with who did it, and restored: every
 * table with those columns, so a new resource's table qualifies by its columns alone.
 */
export type Deletable = {
  [T in keyof DB]: DB[T] extends { deleted_at: unknown; deleted_by_id: unknown; updated_at: unknown }
    ? T
    : never;
}[keyof DB];

/**
 * Soft-deletes (`deleted`: true, by `by`) or restores a row if it is not already so; false when it
 * was, so that of a delete and a racing delete or restore, one changes a row and writes its event.
 */
export async function setDeleted(
  db: Kysely<DB>,
  table: Deletable,
  workspaceId: string,
  id: string,
  deleted: boolean,
  at: string,
  by: string,
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({ deleted_at: deleted ? at : null, deleted_by_id: deleted ? by : null, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', deleted ? 'is' : 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Tables with a `deleted_at`: soft-deleted rows, live while it is null. */
type SoftDeleted = {
  [T in keyof DB]: DB[T] extends { deleted_at: unknown; workspace_id: string; id: string } ? T : never;
}[keyof DB];

interface LiveRow {
  workspace_id: string;
  id: string;
  deleted_at: string | null;
}

/**
 * Applies `changes` to a live row (not soft-deleted): false when it is deleted, so that an update
 * racing a delete changes nothing.
 */
export async function updateIfLive(
  db: Kysely<DB>,
  table: SoftDeleted,
  workspaceId: string,
  id: string,
  changes: Record<string, unknown>,
): Promise<boolean> {
  // The table is chosen at run time: the query is typed for a stand-in table (as db/by-id.ts does).
  const result = await (db as unknown as Kysely<Record<string, LiveRow>>)
    .updateTable(table)
    .set(changes as Partial<LiveRow>)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
