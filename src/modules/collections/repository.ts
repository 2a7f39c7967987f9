import type { Kysely, Selectable } from 'kysely';
import { defineOrder } from '../../db/keyset.ts';
import { tableListing } from '../../db/listing.ts';
import type { CollectionsTable, DB } from '../../db/types.ts';
import type { RowKind } from '../../preconditions.ts';

export type CollectionRow = Selectable<CollectionsTable>;

/** GET /v1/collections: oldest first. */
export const COLLECTION_LIST = tableListing(
  defineOrder<CollectionRow>([
    { ref: 'c.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 'c.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('collections as c').where('c.workspace_id', '=', workspaceId),
  ['c.workspace_id', 'c.id', 'c.name', 'c.created_by_id', 'c.created_at', 'c.updated_at'],
);

export async function insertCollection(db: Kysely<DB>, row: CollectionRow): Promise<void> {
  await db.insertInto('collections').values(row).execute();
}

export async function updateCollection(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<CollectionRow>,
) {
  await db
    .updateTable('collections')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Collections by id (db/by-id.ts, preconditions.ts loadById). */
export const COLLECTIONS: RowKind<CollectionRow> = {
  from: 'collections',
  name: 'collection',
  version: (r) => r.updated_at,
};

export function findCollections(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
): Promise<CollectionRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('collections')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}
