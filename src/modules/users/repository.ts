import type { Kysely, RawBuilder, Selectable, SqlBool } from 'kysely';
import type { DB, UsersTable } from '../../db/types.ts';
import { after, type KeyValue } from '../../http/cursor.ts';

export type UserRow = Selectable<UsersTable>;

export async function insertUser(db: Kysely<DB>, row: Omit<UserRow, 'seq'>): Promise<UserRow> {
  const { seq } = await db.insertInto('users').values(row).returning('seq').executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}

export function findUser(db: Kysely<DB>, workspaceId: string, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findUserByEmail(
  db: Kysely<DB>,
  workspaceId: string,
  email: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function findUsers(db: Kysely<DB>, workspaceId: string, ids: string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

export const USER_ORDER = [
  { ref: 'users.created_at', dir: 'asc' },
  { ref: 'users.id', dir: 'asc' },
] as const;

export interface UserListQuery {
  workspaceId: string;
  /** Only users sharing a group with this user, and the user (how guests see the directory). */
  sharingGroupsWith?: string;
  after?: KeyValue[];
  offset?: number;
  limit: number;
}

export function listUsers(db: Kysely<DB>, q: UserListQuery): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll().where('workspace_id', '=', q.workspaceId);
  if (q.sharingGroupsWith) {
    const me = q.sharingGroupsWith;
    query = query.where((eb) =>
      eb.or([
        eb('users.id', '=', me),
        eb(
          'users.id',
          'in',
          eb
            .selectFrom('group_members as theirs')
            .innerJoin('group_members as mine', (j) =>
              j
                .onRef('mine.group_id', '=', 'theirs.group_id')
                .onRef('mine.workspace_id', '=', 'theirs.workspace_id'),
            )
            .where('mine.workspace_id', '=', q.workspaceId)
            .where('mine.user_id', '=', me)
            .select('theirs.user_id'),
        ),
      ]),
    );
  }
  if (q.after) query = query.where(after([...USER_ORDER], q.after));
  return query
    .orderBy('users.created_at', 'asc')
    .orderBy('users.id', 'asc')
    .offset(q.offset ?? 0)
    .limit(q.limit + 1)
    .execute();
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
