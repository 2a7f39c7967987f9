import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import { prepared } from '../../db/prepared.ts';
import type { ApiTokensTable, DB, WorkspaceRole } from '../../db/types.ts';
import type { RowKind } from '../../preconditions.ts';
import type { GroupMembership } from '../groups/repository.ts';

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

/** GET /v1/api-tokens: oldest first. Never the hash: the listing selects what is shown. */
export const TOKEN_LIST = tableListing(
  defineOrder<ListedToken>([
    { ref: 't.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 't.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('api_tokens as t').where('t.workspace_id', '=', workspaceId),
  ['t.id', 't.name', 't.created_at', 't.last_used_at'],
);

export type ListedToken = Pick<TokenRow, 'id' | 'name' | 'created_at' | 'last_used_at'>;

/** The live (not revoked) tokens of one user, on alias t. */
export function liveTokensOf(userId: string): Condition {
  return sql<SqlBool>`(t.user_id = ${userId} and t.revoked_at is null)`;
}

/** The caller a credential stands for: its workspace, its user and their groups (token or session). */
export interface CallerRow {
  workspace_id: string;
  workspace_name: string;
  workspace_code: number;
  user_id: string;
  user_name: string;
  user_email: string;
  user_role: WorkspaceRole;
  /** The workspace's groups with the user's membership (groups/lookup.ts knownGroupVisibility). */
  groups: GroupsJson;
}

export interface TokenOwner extends CallerRow {
  token_id: string;
  token_last_used_at: string | null;
}

/**
 * CallerRow's columns but the groups (groupsColumn), for a lookup that joins the credential's table as
 * `t` to `users as u` and `workspaces as w`: the token's here, the session's in auth/repository.ts.
 */
export const CALLER_COLUMNS = [
  'w.id as workspace_id',
  'w.name as workspace_name',
  'w.code as workspace_code',
  'u.id as user_id',
  'u.name as user_name',
  'u.email as user_email',
  'u.role as user_role',
] as const;

/**
 * The workspace's groups as [id, kind, privacy, the user's role or null], a JSON array: text on
 * SQLite, parsed on PostgreSQL (null when the workspace has none).
 */
type GroupsJson = string | GroupMembership[] | null;

/** What every request needs to know of its caller's groups for the visibility rules (groups/lookup.ts). */
export function groupsOf(owner: Pick<TokenOwner, 'groups'>): GroupMembership[] {
  if (owner.groups === null) return [];
  const rows = typeof owner.groups === 'string' ? (JSON.parse(owner.groups) as unknown[][]) : owner.groups;
  return rows.map(
    (r) => (Array.isArray(r) ? { id: r[0], kind: r[1], privacy: r[2], role: r[3] } : r) as GroupMembership,
  );
}

/**
 * The caller's groups, read with the token (or the session: auth/repository.ts, which aliases its
 * table `t` too) so that a request's visibility rules cost no round trip of their own. SQLite builds
 * the JSON with json_group_array, PostgreSQL with json_agg.
 */
export function groupsColumn(dialect: Dialect) {
  const row =
    dialect === 'sqlite'
      ? sql`json_array(g.id, g.kind, g.privacy, m.role)`
      : sql`json_build_array(g.id, g.kind, g.privacy, m.role)`;
  const all = dialect === 'sqlite' ? sql`json_group_array(${row})` : sql`json_agg(${row})`;
  return sql<GroupsJson>`(select ${all} from groups g left join group_members m
    on m.workspace_id = g.workspace_id and m.group_id = g.id and m.user_id = t.user_id
    where g.workspace_id = t.workspace_id)`;
}

/** The token lookup every request runs, with the caller's groups: built once (db/prepared.ts). */
function tokenLookup(dialect: Dialect) {
  return prepared((db: Kysely<DB>, hash: string) =>
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
        ...CALLER_COLUMNS,
        groupsColumn(dialect).as('groups'),
      ]),
  );
}

const tokenLookups = { sqlite: tokenLookup('sqlite'), postgres: tokenLookup('postgres') };

/** The one lookup that is not scoped by workspace: a token is how a request finds its workspace. */
export async function findActiveTokenByHash(
  db: Kysely<DB>,
  dialect: Dialect,
  hash: string,
): Promise<TokenOwner | undefined> {
  return (await tokenLookups[dialect](db, hash))[0];
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
