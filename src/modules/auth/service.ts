// Signing in with a password, the caller's sessions, and changing one's password
// (docs/api.md "Sessions"). No HTTP here: routes.ts sets and clears the cookie.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type Auth, now } from '../../context.ts';
import { findById } from '../../db/by-id.ts';
import type { Database } from '../../db/index.ts';
import { transaction } from '../../db/transaction.ts';
import type { DB } from '../../db/types.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { presentUser } from '../users/present.ts';
import { USERS, type UserRow } from '../users/repository.ts';
import { touchUser } from '../users/service.ts';
import type { Locked, Lockout } from './lockout.ts';
import { hashPassword, passwordProblem, spendTime, verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import type { Session, SignedIn, SignInBody } from './schema.ts';
import {
  endSessions,
  endsAt,
  hashSecret,
  SESSION_IDLE_MS,
  type StartedSession,
  startSession,
} from './sessions.ts';

/**
 * Without a workspaceId, the password is tried against this many of the email's accounts at most (the
 * most recently used), all at once: a sign-in takes the time of one hash whatever the number.
 */
const MAX_ACCOUNTS = 4;

export interface AuthServices {
  database: Database;
  lockout: Lockout;
  log: FastifyBaseLogger;
}

/** Who is signing in from where, as the session records it. */
export interface Browser {
  userAgent: string | undefined;
  address: string;
  /** The session cookie the browser already holds, if any: a new sign-in ends that session. */
  previousSecret: string | undefined;
}

export interface SignInResult {
  answer: SignedIn;
  session: StartedSession;
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function invalidCredentials(): AppError {
  return new AppError('invalid_credentials', 'The email or the password is wrong');
}

function tooManyFailures(locked: Locked): AppError {
  const what = locked.scope === 'account' ? 'for this email' : 'from this address';
  return new AppError(
    'rate_limited',
    `Too many failed sign-ins ${what}; retry in ${locked.retryAfterSeconds} seconds`,
    undefined,
    { 'retry-after': String(locked.retryAfterSeconds) },
  );
}

/** The first candidate (most recently used first) the password opens; every check runs at once. */
async function matching(password: string, candidates: repo.Candidate[]) {
  if (candidates.length === 0) {
    await spendTime(password);
    return undefined;
  }
  const results = await Promise.all(candidates.map((c) => verifyPassword(password, c.password_hash)));
  const index = results.findIndex((r) => r.ok);
  return index < 0
    ? undefined
    : { candidate: candidates[index] as repo.Candidate, rehash: results[index]!.rehash };
}

/**
 * POST /v1/auth/sign-in. A wrong password and an unknown email are the same 401 after the same work
 * (one hash); both count against the email's and the address's failures (lockout.ts).
 */
export async function signIn(
  services: AuthServices,
  input: SignInBody,
  browser: Browser,
): Promise<SignInResult> {
  const { database, lockout, log } = services;
  const email = normalizeEmail(input.email);
  const locked = await lockout.lockedFor(email, browser.address);
  if (locked) {
    log.warn({ email, address: browser.address, lockedBy: locked.scope }, 'sign-in refused: locked out');
    throw tooManyFailures(locked);
  }
  const candidates = await repo.signInCandidates(database.db, email, input.workspaceId, MAX_ACCOUNTS);
  const found = await matching(input.password, candidates);
  if (!found) {
    await lockout.failed(email, browser.address);
    log.warn({ email, address: browser.address, knownEmail: candidates.length > 0 }, 'sign-in failed');
    throw invalidCredentials();
  }
  await lockout.succeeded(email);
  const { candidate } = found;
  // Stored with older parameters than today's: store today's, unless the password changed meanwhile.
  if (found.rehash) {
    const hash = await hashPassword(input.password);
    await repo.replacePasswordHash(
      database.db,
      candidate.workspace_id,
      candidate.user_id,
      candidate.password_hash,
      hash,
    );
  }
  const { user, session } = await transaction(
    database,
    async (tx) => {
      const at = now();
      const idleSince = new Date(Date.parse(at) - SESSION_IDLE_MS).toISOString();
      await repo.deleteEndedSessions(tx.db, candidate.workspace_id, candidate.user_id, at, idleSince);
      if (browser.previousSecret) await repo.deleteSessionByHash(tx.db, hashSecret(browser.previousSecret));
      await touchUser(tx.db, candidate.workspace_id, candidate.user_id, at);
      const session = await startSession(tx.db, {
        workspaceId: candidate.workspace_id,
        userId: candidate.user_id,
        userAgent: browser.userAgent,
        address: browser.address,
      });
      return { user: await userRow(tx.db, candidate.workspace_id, candidate.user_id), session };
    },
    { group: true },
  );
  log.info({ email, address: browser.address, userId: user.id, sessionId: session.id }, 'signed in');
  return {
    answer: {
      user: presentUser(user),
      workspace: { id: candidate.workspace_id, name: candidate.workspace_name },
    },
    session,
  };
}

async function userRow(db: Kysely<DB>, workspaceId: string, userId: string): Promise<UserRow> {
  const row = await findById<UserRow>(db, USERS, workspaceId, userId);
  if (!row) throw new AppError('unauthenticated', 'This person is no longer in the workspace');
  return row;
}

/** POST /v1/auth/sign-out: ends the session the cookie names, if it names one. */
export async function signOut(database: Database, secret: string | undefined): Promise<void> {
  if (secret) await repo.deleteSessionByHash(database.db, hashSecret(secret));
}

/** GET /v1/auth/sessions: the caller's live sessions, newest first. */
export async function listSessions(database: Database, auth: Auth): Promise<Session[]> {
  const at = now();
  const idleSince = new Date(Date.parse(at) - SESSION_IDLE_MS).toISOString();
  const rows = await repo.liveSessions(database.db, auth.workspace.id, auth.actor.id, at, idleSince);
  return rows.map((r) => ({
    id: r.id,
    current: r.id === auth.session?.id,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    // What ends it first, if unused from now on: the idle limit or the expiry.
    expiresAt: new Date(endsAt(r.last_used_at, r.expires_at)).toISOString(),
    userAgent: r.user_agent,
    address: r.address,
  }));
}

/** DELETE /v1/auth/sessions/{id}: ends one of the caller's sessions; anyone else's is not found. */
export async function endSession(database: Database, auth: Auth, ref: string): Promise<void> {
  const id = uuidRef(ref);
  const ended = id ? await repo.deleteSession(database.db, auth.workspace.id, auth.actor.id, id) : false;
  if (!ended) throw notFound('Session');
}

/**
 * POST /v1/auth/password: the caller's new password, given the current one. Every other session of
 * the caller ends (with an API token, every session). A wrong current password counts as a failed
 * sign-in for the caller's email, so a stolen session cannot be used to guess it.
 */
export async function changePassword(
  services: AuthServices,
  auth: Auth,
  input: { currentPassword: string; newPassword: string },
  address: string,
): Promise<void> {
  const { database, lockout, log } = services;
  const { workspace, actor } = auth;
  const email = normalizeEmail(actor.email);
  const locked = await lockout.lockedFor(email, address);
  if (locked) throw tooManyFailures(locked);
  const problem = passwordProblem(input.newPassword);
  if (problem) throw invalid('newPassword', problem);
  const stored = await repo.passwordHashOf(database.db, workspace.id, actor.id);
  if (stored === null) {
    throw invalid('currentPassword', 'you have no password yet: set one with a password link from an owner');
  }
  if (!(await verifyPassword(input.currentPassword, stored)).ok) {
    await lockout.failed(email, address);
    log.warn({ email, address, userId: actor.id }, 'password change refused: wrong current password');
    throw invalid('currentPassword', 'is not your current password');
  }
  const hash = await hashPassword(input.newPassword);
  await transaction(
    database,
    async (tx) => {
      // Only over the hash that was checked: a change made meanwhile (another session, a reset link) wins.
      if (!(await repo.replacePasswordHash(tx.db, workspace.id, actor.id, stored, hash))) {
        throw new AppError('conflict', 'The password was changed meanwhile; sign in again with the new one');
      }
      await endSessions(tx.db, workspace.id, actor.id, auth.session?.id);
    },
    { group: true },
  );
  log.info({ userId: actor.id, sessionId: auth.session?.id }, 'password changed; other sessions ended');
}
