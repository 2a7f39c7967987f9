// Accepting an invitation and the one-time password links (docs/api.md "Invitations and password
// links"). A password link (`password_tokens`) sets a user's password once: `reset` (asked for by the
// person, made by an owner, or printed by `cairn user reset-password`) or `setup` (the bootstrap
// owner's, printed at the first start). Using one ends every session of that user and retires the
// user's other unused links.
//
// The public routes have no actor, so these run on the database itself (db/transaction.ts) rather than
// a request Context. A password is hashed (tens of milliseconds, by design) before the transaction
// opens, never inside it: on SQLite the transaction would hold the one writer meanwhile.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { afterCommit, type Context, now } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { transaction } from '../../db/transaction.ts';
import type { DB, PasswordTokenPurpose } from '../../db/types.ts';
import { forbidden, invalid } from '../../http/errors.ts';
import type { Outbound } from '../../mail/mailer.ts';
import { passwordResetMail } from '../../mail/messages.ts';
import * as invitations from '../invitations/service.ts';
import type { UserRow } from '../users/repository.ts';
import * as users from '../users/service.ts';
import { actingAs } from '../workspaces/service.ts';
import { hashPassword, passwordProblem, storePasswordHash } from './passwords.ts';
import { invalidToken, linkUrl, newLinkToken } from './recovery-links.ts';
import * as repo from './recovery-repository.ts';
import { endSessions, hashSecret, type StartedSession, startSession } from './sessions.ts';

const HOUR_MS = 60 * 60 * 1000;
/** How long a link lives: a reset link an hour; the first start's setup link a day (the operator reads it). */
export const LINK_LIFETIME_MS: Record<PasswordTokenPurpose, number> = { reset: HOUR_MS, setup: 24 * HOUR_MS };

export interface PasswordLink {
  url: string;
  expiresAt: string;
}

/** A new password, refused in plain words (400 at /body/password), or its hash. */
async function newPasswordHash(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw invalid('password', problem);
  return hashPassword(password);
}

/** Stores a new link for a user, without any permission check (the callers decide who may). */
export async function issuePasswordLink(
  db: Kysely<DB>,
  publicUrl: string,
  target: { workspaceId: string; userId: string; purpose: PasswordTokenPurpose; createdById: string | null },
): Promise<PasswordLink> {
  const token = newLinkToken();
  const at = now();
  const expiresAt = new Date(Date.parse(at) + LINK_LIFETIME_MS[target.purpose]).toISOString();
  await repo.insertPasswordToken(db, {
    workspace_id: target.workspaceId,
    id: randomUUID(),
    user_id: target.userId,
    purpose: target.purpose,
    token_hash: hashSecret(token),
    created_by_id: target.createdById,
    created_at: at,
    expires_at: expiresAt,
    used_at: null,
  });
  return { url: linkUrl(publicUrl, 'reset-password', token), expiresAt };
}

/**
 * POST /v1/users/{id}/password-reset: an owner makes a reset link for a person of the workspace (also
 * mailed to them, after the commit, when SMTP is set).
 */
export async function issueResetLinkFor(ctx: Context, ref: string, out: Outbound): Promise<PasswordLink> {
  if (ctx.actor.role !== 'owner') throw forbidden('Only owners make password links for other people');
  const user = await users.getUser(ctx, ref);
  const link = await issuePasswordLink(ctx.db, out.publicUrl, {
    workspaceId: ctx.workspace.id,
    userId: user.id,
    purpose: 'reset',
    createdById: ctx.actor.id,
  });
  const mail = passwordResetMail({
    to: user.email,
    workspace: ctx.workspace.name,
    madeBy: ctx.actor.name,
    ...link,
  });
  afterCommit(ctx, () => out.mailer.send(mail));
  return link;
}

/**
 * POST /v1/auth/password-reset: the person asks with their email. The route answers 202 at once, the
 * same for every email; everything else happens after the answer (mail/mailer.ts `later`), so neither
 * the answer nor its timing tells whether the email belongs to anyone. With SMTP, each person with
 * that email (in the workspace named, or in each workspace) gets a link by mail. Without it nothing
 * can reach them: the request is logged for the operator, who can make a link (`cairn user
 * reset-password`, or an owner's POST /v1/users/{id}/password-reset). No link is made then.
 */
export function requestReset(
  database: Database,
  out: Outbound,
  log: FastifyBaseLogger,
  input: { email: string; workspaceId?: string },
): void {
  const email = input.email.trim().toLowerCase();
  out.mailer.later('a password reset request failed', async () => {
    const people = await repo.peopleByEmail(database.db, email, input.workspaceId);
    for (const person of people) {
      if (!out.mailer.enabled) {
        log.warn(
          { email, workspaceId: person.workspace_id, userId: person.user_id },
          'a password reset was asked for, but no mail can be sent (CAIRN_SMTP_URL is not set): make a link with `cairn user reset-password --email <email> --workspace <workspaceId>` and pass it on',
        );
        continue;
      }
      const link = await transaction(
        database,
        (tx) =>
          issuePasswordLink(tx.db, out.publicUrl, {
            workspaceId: person.workspace_id,
            userId: person.user_id,
            purpose: 'reset',
            createdById: null,
          }),
        { group: true },
      );
      out.mailer.send(
        passwordResetMail({ to: person.email, workspace: person.workspace_name, madeBy: null, ...link }),
      );
    }
  });
}

/** The link a token names, if it can still be used at `at`; otherwise 400 invalid_token saying why. */
async function usableLink(db: Kysely<DB>, token: string, at: string, forUpdate: boolean) {
  const row = await repo.findByTokenHash(db, hashSecret(token), forUpdate);
  if (!row) throw invalidToken('This password link is not valid; check that it was copied whole');
  if (row.used_at !== null) {
    throw invalidToken('This password link was already used, or a newer one was; ask for a new link');
  }
  if (Date.parse(row.expires_at) <= Date.parse(at)) {
    throw invalidToken('This password link has expired; ask for a new one');
  }
  return row;
}

/**
 * POST /v1/auth/reset-password: sets the password through a link, once. Every session of the user
 * ends (whoever was signed in as them is signed out), and their other unused links stop working.
 */
export async function resetPassword(database: Database, input: { token: string; password: string }) {
  await usableLink(database.db, input.token, now(), false);
  const hash = await newPasswordHash(input.password);
  await transaction(
    database,
    async (tx) => {
      const at = now();
      const row = await usableLink(tx.db, input.token, at, database.dialect === 'postgres');
      if (!(await repo.useLink(tx.db, row, at))) {
        throw invalidToken('This password link was already used, or a newer one was; ask for a new link');
      }
      await storePasswordHash(tx.db, row.workspace_id, row.user_id, hash);
      await endSessions(tx.db, row.workspace_id, row.user_id);
    },
    { group: true },
  );
}

export interface Accepted {
  user: UserRow;
  workspace: { id: string; name: string };
  session: StartedSession;
}

/**
 * POST /v1/auth/accept-invitation: makes the person a user of the invitation's workspace with its
 * role (users.insertUser, as any new user: search index included), sets their password and starts
 * their session, in one transaction. Two accepts of one link at once make one user: the invitation's
 * row is locked and its acceptance is conditional on it still being pending.
 */
export async function acceptInvitation(
  database: Database,
  input: { token: string; name: string; password: string; userAgent?: string; address?: string },
): Promise<Accepted> {
  await invitations.usableInvitation(database.db, input.token, now(), false);
  const hash = await newPasswordHash(input.password);
  return transaction(
    database,
    async (tx) => {
      const at = now();
      const invitation = await invitations.usableInvitation(
        tx.db,
        input.token,
        at,
        database.dialect === 'postgres',
      );
      const ws = invitation.workspace_id;
      const user = await users.insertUser(tx.db, database.search, ws, {
        name: input.name,
        email: invitation.email,
        role: invitation.role,
      });
      await invitations.markAccepted(tx.db, invitation, user.id, at);
      await storePasswordHash(tx.db, ws, user.id, hash);
      const session = await startSession(tx.db, {
        workspaceId: ws,
        userId: user.id,
        userAgent: input.userAgent,
        address: input.address,
      });
      const acting = await actingAs(tx.db, ws, user.id);
      if (!acting) throw new Error('the user just made is not found');
      return { user, workspace: { id: ws, name: acting.workspace.name }, session };
    },
    { group: true },
  );
}
