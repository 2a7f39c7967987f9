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
