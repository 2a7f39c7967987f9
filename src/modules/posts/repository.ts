import type { Kysely, Selectable } from 'kysely';
import type { DB, PostsTable } from '../../db/types.ts';

export type PostRow = Selectable<PostsTable>;

export async function insertPost(db: Kysely<DB>, row: Omit<PostRow, 'seq'>): Promise<PostRow> {
  const { seq } = await db.insertInto('posts').values(row).returning('seq').executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}
