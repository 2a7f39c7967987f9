// SQL of sign-in and sessions. The session lookup is the cookie's counterpart of the API-token lookup
// (api-tokens/repository.ts): by the SHA-256 of the cookie's secret, with the user, the workspace and
// the user's groups in one statement, built once per dialect.
import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import { prepared } from '../../db/prepared.ts';
import type { DB, SessionsTable } from '../../db/types.ts';
import { CALLER_COLUMNS, type CallerRow, groupsColumn } from '../api-tokens/repository.ts';

export interface SessionOwner extends CallerRow {
  session_id: string;
  last_used_at: string;
  expires_at: string;
}

function sessionLookup(dialect: Dialect) {
  // Aliased `t` like api_tokens, so that groupsColumn reads the user and workspace the same way.
  return prepared((db: Kysely<DB>, hash: string) =>
    db
      .selectFrom('sessions as t')
      .innerJoin('users as u', (j) =>
        j.onRef('u.workspace_id', '=', 't.workspace_id').onRef('u.id', '=', 't.user_id'),
      )
      .innerJoin('workspaces as w', 'w.id', 't.workspace_id')
      .where('t.token_hash', '=', hash)
      .select([
        't.id as session_id',
        't.last_used_at as last_used_at',
        't.expires_at as expires_at',
        ...CALLER_COLUMNS,
        groupsColumn(dialect).as('groups'),
      ]),
  );
}

const sessionLookups = { sqlite: sessionLookup('sqlite'), postgres: sessionLookup('postgres') };

/** The session whose secret hashes to `hash`, expired or not (the caller judges), with its user. */
export async function findSessionByHash(
  db: Kysely<DB>,
  dialect: Dialect,
  hash: string,
): Promise<SessionOwner | undefined> {
  return (await sessionLookups[dialect](db, hash))[0];
}

/** A session's sliding renewal: last used now, and expiring a lifetime from now. */
export async function renewSession(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  at: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_used_at: at, expires_at: expiresAt })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function deleteSessionByHash(db: Kysely<DB>, hash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hash).execute();
}

/** Deletes one session of one user; whether there was one. */
export async function deleteSession(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export type SessionRow = Pick<
  Selectable<SessionsTable>,
  'id' | 'created_at' | 'last_used_at' | 'expires_at' | 'user_agent' | 'address'
>;

/** A user's sessions that are still live at `at` (not past their expiry, nor idle since `idleSince`), newest first. */
export function liveSessions(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  at: string,
  idleSince: string,
): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'address'])
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', at)
    .where('last_used_at', '>', idleSince)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Forgets a user's sessions that ended by time (run at each sign-in, so that rows do not pile up). */
export async function deleteEndedSessions(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  at: string,
  idleSince: string,
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', at), eb('last_used_at', '<=', idleSince)]))
    .execute();
}

export interface Candidate {
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  password_hash: string;
}

/**
 * The people with this (normalized) email who may sign in with a password, in one workspace or in
 * all: those with a password set, most recently active first, at most `limit`.
 */
export function signInCandidates(
  db: Kysely<DB>,
  email: string,
  workspaceId: string | undefined,
  limit: number,
): Promise<Candidate[]> {
  return db
    .selectFrom('users as u')
    .innerJoin('workspaces as w', 'w.id', 'u.workspace_id')
    .select(['u.workspace_id', 'w.name as workspace_name', 'u.id as user_id', 'u.password_hash'])
    .where('u.email', '=', email)
    .where('u.password_hash', 'is not', null)
    .$if(workspaceId !== undefined, (q) => q.where('u.workspace_id', '=', workspaceId as string))
    .$narrowType<{ password_hash: string }>()
    .orderBy('u.last_accessed_at', (o) => o.desc().nullsLast())
    .orderBy('u.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** A user's password hash (null when none is set). */
export async function passwordHashOf(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('password_hash')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash ?? null;
}

/**
 * Replaces a user's password hash only while it is still `previous` (the one a request checked);
 * whether it did. A change made meanwhile (another session, a one-time link) is not overwritten.
 */
export async function replacePasswordHash(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  previous: string,
  hash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: hash })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .where('password_hash', '=', previous)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
