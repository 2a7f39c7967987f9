import type { Kysely, Selectable } from 'kysely';
import type { DB, PasswordTokensTable } from '../../db/types.ts';

/** A password link as its checks see it: never the token's hash. */
export type PasswordTokenRow = Omit<Selectable<PasswordTokensTable>, 'token_hash'>;

const COLUMNS = [
  'workspace_id',
  'id',
  'user_id',
  'purpose',
  'created_by_id',
  'created_at',
  'expires_at',
  'used_at',
] as const;

export async function insertPasswordToken(
  db: Kysely<DB>,
  row: Selectable<PasswordTokensTable>,
): Promise<void> {
  await db.insertInto('password_tokens').values(row).execute();
}

/**
 * The link a token names, by its hash (unique across workspaces: the link is how its workspace is
 * found); `forUpdate` (PostgreSQL) locks it until the transaction ends.
 */
export function findByTokenHash(
  db: Kysely<DB>,
  hash: string,
  forUpdate: boolean,
): Promise<PasswordTokenRow | undefined> {
  const q = db.selectFrom('password_tokens').select(COLUMNS).where('token_hash', '=', hash);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * Uses a link: marks it used if it still is unused and unexpired at `at`, and every other unused link
 * of the same person with it (the newest link used wins; older ones stop working). False when the link
 * itself was no longer usable: another use came first.
 */
export async function useLink(db: Kysely<DB>, row: PasswordTokenRow, at: string): Promise<boolean> {
  const used = await db
    .updateTable('password_tokens')
    .set({ used_at: at })
    .where('workspace_id', '=', row.workspace_id)
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('password_tokens')
    .set({ used_at: at })
    .where('workspace_id', '=', row.workspace_id)
    .where('user_id', '=', row.user_id)
    .where('used_at', 'is', null)
    .execute();
  return true;
}

export interface Person {
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  email: string;
}

/**
 * The people with this email (stored lower-case), in every workspace or in one, oldest workspace
 * first. Reads users and workspaces: a self-service reset has no workspace context yet.
 */
export function peopleByEmail(db: Kysely<DB>, email: string, workspaceId?: string): Promise<Person[]> {
  let q = db
    .selectFrom('users as u')
    .innerJoin('workspaces as w', 'w.id', 'u.workspace_id')
    .select(['u.workspace_id', 'w.name as workspace_name', 'u.id as user_id', 'u.email'])
    .where('u.email', '=', email)
    .orderBy('w.created_at')
    .limit(MAX_WORKSPACES);
  if (workspaceId !== undefined) q = q.where('u.workspace_id', '=', workspaceId);
  return q.execute();
}

/** Workspaces a reset request mails at most (one mail each): one request is never a flood. */
const MAX_WORKSPACES = 10;
