import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import type { DB, InvitationsTable } from '../../db/types.ts';
import type { RowKind } from '../../preconditions.ts';
import type { InvitationState } from './schema.ts';

/** An invitation as every read sees it: never the token's hash, which only the link lookup compares. */
export type InvitationRow = Omit<Selectable<InvitationsTable>, 'token_hash'>;

const COLUMNS = [
  'i.workspace_id',
  'i.id',
  'i.email',
  'i.role',
  'i.name',
  'i.created_by_id',
  'i.created_at',
  'i.expires_at',
  'i.accepted_at',
  'i.accepted_user_id',
  'i.revoked_at',
] as const;

export async function insertInvitation(db: Kysely<DB>, row: Selectable<InvitationsTable>): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

/**
 * Takes the workspace's lock on invitations of one email until the transaction ends (PostgreSQL; SQLite
 * runs one writer at a time), so that two invitations of one email made at once replace each other in
 * turn instead of meeting at the unique index (migration 0017).
 */
export async function lockEmail(db: Kysely<DB>, dialect: Dialect, workspaceId: string, email: string) {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(${workspaceId}), hashtext(${`invitations:${email}`}))`.execute(
    db,
  );
}

/** Revokes the email's open invitation (pending or expired), if any: a new one replaces it. */
export async function revokeOpen(
  db: Kysely<DB>,
  workspaceId: string,
  email: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Invitations by id (preconditions.ts loadById). Its version is its createdAt, as its ETag says. */
export const INVITATIONS: RowKind<InvitationRow> = {
  from: 'invitations as i',
  columns: COLUMNS,
  name: 'invitation',
  version: (r) => r.created_at,
};

export async function revoke(db: Kysely<DB>, workspaceId: string, id: string, at: string): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * The invitation a link names, by its token's hash (unique across workspaces: a link is how its
 * workspace is found); `forUpdate` (PostgreSQL) locks it until the transaction ends.
 */
export function findByTokenHash(
  db: Kysely<DB>,
  hash: string,
  forUpdate: boolean,
): Promise<InvitationRow | undefined> {
  const q = db.selectFrom('invitations as i').select(COLUMNS).where('i.token_hash', '=', hash);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/** Marks a pending invitation accepted; false when it no longer is pending (another accept won). */
export async function markAccepted(
  db: Kysely<DB>,
  row: InvitationRow,
  userId: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: at, accepted_user_id: userId })
    .where('workspace_id', '=', row.workspace_id)
    .where('id', '=', row.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** GET /v1/invitations: newest first. */
export const INVITATION_LIST = tableListing(
  defineOrder<InvitationRow>([
    { ref: 'i.created_at', dir: 'desc', key: (r) => r.created_at },
    { ref: 'i.id', dir: 'desc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('invitations as i').where('i.workspace_id', '=', workspaceId),
  COLUMNS,
);

/** Invitations in `state` at the instant `at`, on alias i (the state's definition: service.ts stateOf). */
export function inState(state: InvitationState, at: string): Condition {
  switch (state) {
    case 'accepted':
      return sql<SqlBool>`i.accepted_at is not null`;
    case 'revoked':
      return sql<SqlBool>`(i.accepted_at is null and i.revoked_at is not null)`;
    case 'expired':
      return sql<SqlBool>`(i.accepted_at is null and i.revoked_at is null and i.expires_at <= ${at})`;
    case 'pending':
      return sql<SqlBool>`(i.accepted_at is null and i.revoked_at is null and i.expires_at > ${at})`;
  }
}
