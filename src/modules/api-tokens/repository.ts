import type { Kysely, Selectable } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { ApiTokensTable, DB, WorkspaceRole } from '../../db/types.ts';
import type { RowKind } from '../../preconditions.ts';

export type TokenRow = Selectable<ApiTokensTable>;

export async function insertToken(db: Kysely<DB>, row: TokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** Tokens by id (preconditions.ts loadById). A token never changes once made: its version is its createdAt. */
export const TOKENS: RowKind<TokenRow> = {
  from: 'api_tokens',
  name: 'API token',
  version: (r) => r.created_at,
};

export interface TokenOwner {
  token_id: string;
  token_last_used_at: string | null;
  workspace_id: string;
  workspace_name: string;
  workspace_code: number;
  user_id: string;
  user_name: string;
  user_email: string;
  user_role: WorkspaceRole;
}

/** The token lookup every request runs: built once (db/prepared.ts). */
const activeTokenByHash = prepared((db: Kysely<DB>, hash: string) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', (j) =>
      j.onRef('u.workspace_id', '=', 't.workspace_id').onRef('u.id', '=', 't.user_id'),
    )
    .innerJoin('workspaces as w', 'w.id', 't.workspace_id')
    .where('t.token_hash', '=', hash)
    .where('t.revoked_at', 'is', null)
    .select([
      't.id as token_id',
      't.last_used_at as token_last_used_at',
      'w.id as workspace_id',
      'w.name as workspace_name',
      'w.code as workspace_code',
      'u.id as user_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.role as user_role',
    ]),
);

/** The one lookup that is not scoped by workspace: a token is how a request finds its workspace. */
export async function findActiveTokenByHash(db: Kysely<DB>, hash: string): Promise<TokenOwner | undefined> {
  return (await activeTokenByHash(db, hash))[0];
}

export async function revokeToken(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function touchToken(db: Kysely<DB>, workspaceId: string, id: string, at: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}
