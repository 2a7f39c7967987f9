import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import type { PlainTarget, SearchProvider } from '../../db/search/index.ts';
import type { DB, UsersTable } from '../../db/types.ts';
import type { RowKind } from '../../preconditions.ts';

/** Users' names in the text index (FTS5 table and tsvector column, made by the migrations). */
export const USER_TARGET = {
  table: 'users',
  fts: 'users_fts',
  fields: ['name'],
  tagged: false,
} as const satisfies PlainTarget;

const USER_COLUMNS = [
  'u.seq',
  'u.workspace_id',
  'u.id',
  'u.name',
  'u.email',
  'u.role',
  'u.last_accessed_at',
  'u.created_at',
  'u.updated_at',
] as const;

/** A user as every read sees it: never the password hash, which only auth/ reads. */
export type UserRow = Omit<Selectable<UsersTable>, 'password_hash'>;

export async function insertUser(db: Kysely<DB>, row: Omit<UserRow, 'seq'>): Promise<UserRow> {
  const { seq } = await db.insertInto('users').values(row).returning('seq').executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}

/** Users by id (db/by-id.ts, preconditions.ts loadById). */
export const USERS: RowKind<UserRow> = {
  from: 'users as u',
  columns: USER_COLUMNS,
  name: 'user',
  version: (r) => r.updated_at,
};

export function findUserByEmail(
  db: Kysely<DB>,
  workspaceId: string,
  email: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users as u')
    .select(USER_COLUMNS)
    .where('u.workspace_id', '=', workspaceId)
    .where('u.email', '=', email)
    .executeTakeFirst();
}

/** Users by id, among those meeting `where` (conditions on alias u, such as sharingGroupsWith). */
export async function findUsers(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
  where: Condition[] = [],
): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  let q = db
    .selectFrom('users as u')
    .select(USER_COLUMNS)
    .where('u.workspace_id', '=', workspaceId)
    .where('u.id', 'in', ids);
  for (const condition of where) q = q.where(condition);
  return q.execute();
}

/** GET /v1/users: oldest first. */
export const USER_LIST = tableListing(
  defineOrder<UserRow>([
    { ref: 'u.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 'u.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('users as u').where('u.workspace_id', '=', workspaceId),
  USER_COLUMNS,
);

/** The user and those who share a group with them (how guests see the directory), on alias u. */
export function sharingGroupsWith(workspaceId: string, userId: string): Condition {
  return sql<SqlBool>`(u.id = ${userId} or u.id in (select theirs.user_id from group_members theirs
    join group_members mine on mine.workspace_id = theirs.workspace_id and mine.group_id = theirs.group_id
    where mine.workspace_id = ${workspaceId} and mine.user_id = ${userId}))`;
}

/** The workspace's owners; `forUpdate` (PostgreSQL) locks their rows until the transaction ends. */
export async function ownerIds(db: Kysely<DB>, workspaceId: string, forUpdate: boolean): Promise<string[]> {
  const q = db
    .selectFrom('users')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .orderBy('id');
  return (await (forUpdate ? q.forUpdate() : q).execute()).map((r) => r.id);
}

export async function touchUser(db: Kysely<DB>, workspaceId: string, id: string, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_accessed_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function updateUser(db: Kysely<DB>, workspaceId: string, id: string, changes: Partial<UserRow>) {
  await db
    .updateTable('users')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Ids of the workspace's users meeting `condition` (on alias u). */
/** Users whose name matches every word, as a condition for userIdsWhere. */
export function nameMatches(search: SearchProvider, words: string[]): RawBuilder<SqlBool> {
  return search.matches(USER_TARGET, 'u', [{ field: 'name', words }], 'all');
}

export async function userIdsWhere(
  db: Kysely<DB>,
  workspaceId: string,
  condition: RawBuilder<SqlBool>,
): Promise<string[]> {
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.workspace_id', '=', workspaceId)
    .where(condition)
    .execute();
  return rows.map((r) => r.id);
}
