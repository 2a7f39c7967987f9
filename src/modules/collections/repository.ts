import type { Kysely, Selectable } from 'kysely';
import type { CollectionsTable, DB } from '../../db/types.ts';
import { after, type KeyValue } from '../../http/cursor.ts';

export type CollectionRow = Selectable<CollectionsTable>;

export const COLLECTION_ORDER = [
  { ref: 'collections.created_at', dir: 'asc' },
  { ref: 'collections.id', dir: 'asc' },
] as const;

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

export function findCollection(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
): Promise<CollectionRow | undefined> {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

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

export function listCollections(
  db: Kysely<DB>,
  workspaceId: string,
  page: { limit: number; after?: KeyValue[]; offset?: number },
): Promise<CollectionRow[]> {
  let q = db.selectFrom('collections').selectAll().where('workspace_id', '=', workspaceId);
  if (page.after) q = q.where(after([...COLLECTION_ORDER], page.after));
  return q
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .offset(page.offset ?? 0)
    .limit(page.limit + 1)
    .execute();
}
