import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { findByIds, findByRef } from '../../db/by-id.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import type { DB, PostImagesTable, PostReactionsTable, PostsTable } from '../../db/types.ts';

export type PostRow = Selectable<PostsTable>;
export type ImageRow = Selectable<PostImagesTable>;
export type ReactionRow = Selectable<PostReactionsTable>;

const COLUMNS = [
  'po.seq',
  'po.workspace_id',
  'po.id',
  'po.public_id',
  'po.content',
  'po.action',
  'po.action_value',
  'po.entity_type',
  'po.entity_id',
  'po.parent_id',
  'po.owner_id',
  'po.is_resolved',
  'po.created_at',
  'po.updated_at',
] as const;

const SOURCE = { from: 'posts as po', columns: COLUMNS } as const;

export async function insertPost(db: Kysely<DB>, row: Omit<PostRow, 'seq'>): Promise<PostRow> {
  const { seq } = await db.insertInto('posts').values(row).returning('seq').executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}

export function findPost(
  db: Kysely<DB>,
  workspaceId: string,
  ref: { id: string } | { publicId: string },
  forUpdate = false,
): Promise<PostRow | undefined> {
  return findByRef<PostRow>(db, SOURCE, workspaceId, ref, forUpdate);
}

/** The posts of these ids (UUIDs), in one query. */
export function findPostsByIds(db: Kysely<DB>, workspaceId: string, ids: string[]): Promise<PostRow[]> {
  return findByIds<PostRow>(db, SOURCE, workspaceId, ids);
}

/** Sets isResolved if it is not already so; false when it was. */
export async function setResolved(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  resolved: boolean,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('posts')
    .set({ is_resolved: resolved, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('is_resolved', '=', !resolved)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertImages(db: Kysely<DB>, rows: ImageRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('post_images').values(rows).execute();
}

export function imagesOf(db: Kysely<DB>, workspaceId: string, postIds: string[]): Promise<ImageRow[]> {
  if (postIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('post_images')
    .select(['workspace_id', 'id', 'post_id', 'position', 'url', 'key', 'width', 'height'])
    .where('workspace_id', '=', workspaceId)
    .where('post_id', 'in', postIds)
    .orderBy('post_id')
    .orderBy('position')
    .execute();
}

export function reactionsOf(db: Kysely<DB>, workspaceId: string, postIds: string[]): Promise<ReactionRow[]> {
  if (postIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('post_reactions')
    .select(['workspace_id', 'id', 'post_id', 'user_id', 'reaction', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('post_id', 'in', postIds)
    .orderBy('post_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Adds the reaction unless the user already made it; the row that holds it, and whether it is new. */
export async function addReaction(
  db: Kysely<DB>,
  row: ReactionRow,
): Promise<{ row: ReactionRow; added: boolean }> {
  const inserted = await db
    .insertInto('post_reactions')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'post_id', 'user_id', 'reaction']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { row, added: true };
  const existing = await db
    .selectFrom('post_reactions')
    .select(['workspace_id', 'id', 'post_id', 'user_id', 'reaction', 'created_at'])
    .where('workspace_id', '=', row.workspace_id)
    .where('post_id', '=', row.post_id)
    .where('user_id', '=', row.user_id)
    .where('reaction', '=', row.reaction)
    .executeTakeFirstOrThrow();
  return { row: existing, added: false };
}

export async function removeReaction(
  db: Kysely<DB>,
  workspaceId: string,
  postId: string,
  userId: string,
  reaction: string,
): Promise<void> {
  await db
    .deleteFrom('post_reactions')
    .where('workspace_id', '=', workspaceId)
    .where('post_id', '=', postId)
    .where('user_id', '=', userId)
    .where('reaction', '=', reaction)
    .execute();
}

/** Top-level posts of an entity (parent null), or the replies to a post: a condition on alias po. */
export function threadOf(where: { entityType: string; entityId: string } | { parentId: string }): Condition {
  return 'parentId' in where
    ? sql<SqlBool>`po.parent_id = ${where.parentId}`
    : sql<SqlBool>`po.entity_type = ${where.entityType} and po.entity_id = ${where.entityId} and po.parent_id is null`;
}

/** GET /v1/posts/list and replies: oldest first. */
export const POST_LIST = tableListing(
  defineOrder<PostRow>([
    { ref: 'po.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 'po.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('posts as po').where('po.workspace_id', '=', workspaceId),
  COLUMNS,
);
