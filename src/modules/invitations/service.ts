// Invitations (docs/api.md "Invitations and password links"): an owner invites an email with a role;
// the answer holds a one-time link, valid 7 days, that the person opens to choose a name and a
// password (auth/recovery-service.ts acceptInvitation). Only the link's hash is stored.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterCommit, type Context, now } from '../../context.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { listPage } from '../../db/listing.ts';
import type { DB } from '../../db/types.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import type { Outbound } from '../../mail/mailer.ts';
import { invitationMail } from '../../mail/messages.ts';
import { loadById } from '../../preconditions.ts';
import { invalidToken, linkUrl, newLinkToken } from '../auth/recovery-links.ts';
import { hashSecret } from '../auth/sessions.ts';
import * as users from '../users/service.ts';
import { canManageInvitations } from './policy.ts';
import { stateOf } from './present.ts';
import type { InvitationRow } from './repository.ts';
import * as repo from './repository.ts';
import type { InvitationCreateBody, InvitationState } from './schema.ts';

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

function mustManage(ctx: Context): void {
  if (!canManageInvitations(ctx.actor)) throw forbidden('Only owners invite people and see invitations');
}

export interface CreatedInvitation {
  row: InvitationRow;
  url: string;
}

/**
 * POST /v1/invitations. An email that is already a member's is 409. An email with an open invitation
 * gets a new one that replaces it (the older link stops working), as re-inviting does in Linear or
 * GitHub: it is how an owner gets a fresh link, or changes the role offered. The mail, when SMTP is
 * set, goes out after the commit and is not waited for (mail/mailer.ts).
 */
export async function createInvitation(
  ctx: Context,
  input: InvitationCreateBody,
  out: Outbound,
): Promise<CreatedInvitation> {
  mustManage(ctx);
  const email = input.email.trim().toLowerCase();
  await repo.lockEmail(ctx.db, ctx.dialect, ctx.workspace.id, email);
  if (await users.findUserByEmail(ctx, email)) {
    throw conflict(`${email} is already a member of this workspace`);
  }
  const at = now();
  await repo.revokeOpen(ctx.db, ctx.workspace.id, email, at);
  const token = newLinkToken();
  const row: InvitationRow = {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    email,
    role: input.role,
    name: input.name?.trim() ?? null,
    created_by_id: ctx.actor.id,
    created_at: at,
    expires_at: new Date(Date.parse(at) + INVITATION_LIFETIME_MS).toISOString(),
    accepted_at: null,
    accepted_user_id: null,
    revoked_at: null,
  };
  await repo.insertInvitation(ctx.db, { ...row, token_hash: hashSecret(token) });
  const url = linkUrl(out.publicUrl, 'invite', token);
  const mail = invitationMail({
    to: email,
    workspace: ctx.workspace.name,
    invitedBy: ctx.actor.name,
    role: input.role,
    url,
    expiresAt: row.expires_at,
  });
  afterCommit(ctx, () => out.mailer.send(mail));
  return { row, url };
}

/** GET /v1/invitations: newest first, optionally in one state. */
export function listInvitations(
  ctx: Context,
  filter: { state?: InvitationState },
  page: PageRequest,
): Promise<Page<InvitationRow>> {
  mustManage(ctx);
  const where = filter.state ? [repo.inState(filter.state, now())] : [];
  return listPage(ctx, repo.INVITATION_LIST, where, page, false);
}

/**
 * DELETE /v1/invitations/{id}: its link stops working. Revoking a revoked or expired invitation is
 * done (204); an accepted one is 409, since the person is a member now: remove them instead.
 */
export async function revokeInvitation(ctx: Context, ref: string): Promise<void> {
  mustManage(ctx);
  const row = await loadById(ctx, repo.INVITATIONS, uuidRef(ref), { forChange: true });
  if (row.accepted_at !== null) {
    throw conflict(
      'This invitation was accepted; the person is a member now, and their role is changed on the user',
    );
  }
  await repo.revoke(ctx.db, ctx.workspace.id, row.id, now());
}

/**
 * The invitation a link names, if it can still be accepted at `at`; otherwise 400 invalid_token saying
 * why. `forUpdate` locks it (PostgreSQL), so that of two accepts at once the second waits and then
 * finds it accepted.
 */
export async function usableInvitation(
  db: Kysely<DB>,
  token: string,
  at: string,
  forUpdate: boolean,
): Promise<InvitationRow> {
  const row = await repo.findByTokenHash(db, hashSecret(token), forUpdate);
  if (!row) throw invalidToken('This invitation link is not valid; check that it was copied whole');
  switch (stateOf(row, at)) {
    case 'accepted':
      throw invalidToken('This invitation was already accepted; sign in instead');
    case 'revoked':
      throw invalidToken(
        'This invitation was revoked, or replaced by a newer one; ask an owner for a new link',
      );
    case 'expired':
      throw invalidToken('This invitation has expired; ask an owner to invite you again');
    case 'pending':
      return row;
  }
}

/** Records that `userId` accepted the invitation; 400 invalid_token when another accept came first. */
export async function markAccepted(db: Kysely<DB>, row: InvitationRow, userId: string, at: string) {
  if (!(await repo.markAccepted(db, row, userId, at))) {
    throw invalidToken('This invitation was already accepted; sign in instead');
  }
}
