// Browser sessions (docs/api.md "Sessions"): an opaque random secret in the `cairn_session` cookie,
// stored as its SHA-256 with the user, creation, last use, expiry, user agent and address. This file is
// the one place a session starts and its cookie is shaped; the routes that sign in (sign-in, accepting an
// invitation, a password link) all call startSession and answer with sessionCookie's options.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Kysely } from 'kysely';
import { type Auth, now } from '../../context.ts';
import type { Dialect } from '../../db/index.ts';
import type { DB } from '../../db/types.ts';
import { callerAuth } from '../api-tokens/service.ts';
import { touchUser } from '../users/service.ts';
import * as repo from './repository.ts';

export const SESSION_COOKIE = 'cairn_session';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session lives 30 days from its last renewal (sliding; each use renews it, at most once a day)… */
const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** …and ends sooner when unused for 14 days. */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/**
 * A session's use is written (last use, and the expiry slid forward) at most once a day, so that
 * authenticating with the cookie stays a read, like a token's (written at most once a minute).
 * The idle limit and lastUsedAt are therefore to the day.
 */
const RENEW_AFTER_MS = DAY_MS;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface StartedSession {
  id: string;
  /** The cookie's value; only its hash is stored. */
  secret: string;
  expiresAt: string;
}

export interface SessionOwner {
  workspaceId: string;
  userId: string;
  userAgent: string | undefined;
  address: string | undefined;
}

/** Stores a new session for the user; the caller sets the cookie (sessionCookie) on its answer. */
export async function startSession(db: Kysely<DB>, owner: SessionOwner): Promise<StartedSession> {
  const secret = `cairn_s_${randomBytes(32).toString('base64url')}`;
  const createdAt = now();
  const expiresAt = new Date(Date.parse(createdAt) + SESSION_LIFETIME_MS).toISOString();
  const id = randomUUID();
  await db
    .insertInto('sessions')
    .values({
      workspace_id: owner.workspaceId,
      id,
      user_id: owner.userId,
      token_hash: hashSecret(secret),
      created_at: createdAt,
      last_used_at: createdAt,
      expires_at: expiresAt,
      user_agent: owner.userAgent?.slice(0, 512) ?? null,
      address: owner.address ?? null,
    })
    .execute();
  return { id, secret, expiresAt };
}

/**
 * The session cookie's attributes: HttpOnly, SameSite=Lax, Path=/, Secure when the public URL is https,
 * and an Expires of the session's own expiry (an ended session's cookie is cleared with `clear`).
 */
export function sessionCookie(publicUrl: string, expiresAt: string | 'clear'): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: publicUrl.startsWith('https:'),
    expires: expiresAt === 'clear' ? new Date(0) : new Date(expiresAt),
  };
}

/**
 * Ends the user's sessions, all of them or all but one (a password change keeps the session that made
 * it). A password set through a one-time link ends them all.
 */
export async function endSessions(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  exceptId?: string,
): Promise<void> {
  let q = db.deleteFrom('sessions').where('workspace_id', '=', workspaceId).where('user_id', '=', userId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  await q.execute();
}

/** When a session unused since `lastUsedAt` ends by idleness: the limit, or its expiry if sooner. */
export function endsAt(lastUsedAt: string, expiresAt: string): number {
  return Math.min(Date.parse(lastUsedAt) + SESSION_IDLE_MS, Date.parse(expiresAt));
}

/**
 * The request's Auth for the cookie's secret, by its hash (hashSecret), or null when no live session
 * has it: unknown, ended
 * (signed out, revoked, the password changed), past its expiry, or idle for 14 days; one that ended
 * by time is deleted on the way. A use a day or more after the last one renews it (sliding).
 */
export async function authenticateSession(
  db: Kysely<DB>,
  dialect: Dialect,
  hash: string,
): Promise<Auth | null> {
  const found = await repo.findSessionByHash(db, dialect, hash);
  if (!found) return null;
  const at = now();
  const ms = Date.parse(at);
  if (endsAt(found.last_used_at, found.expires_at) <= ms) {
    await repo.deleteSessionByHash(db, hash);
    return null;
  }
  let renewedUntil: string | undefined;
  if (ms - Date.parse(found.last_used_at) >= RENEW_AFTER_MS) {
    renewedUntil = new Date(ms + SESSION_LIFETIME_MS).toISOString();
    await repo.renewSession(db, found.workspace_id, found.session_id, at, renewedUntil);
    await touchUser(db, found.workspace_id, found.user_id, at);
  }
  const session = renewedUntil ? { id: found.session_id, renewedUntil } : { id: found.session_id };
  return callerAuth(found, found.session_id, session);
}
