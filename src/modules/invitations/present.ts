import type { InvitationRow } from './repository.ts';
import type { Invitation, InvitationState } from './schema.ts';

/** What an invitation is at `at` (repository.ts inState is the same rule in SQL). */
export function stateOf(row: InvitationRow, at: string): InvitationState {
  if (row.accepted_at !== null) return 'accepted';
  if (row.revoked_at !== null) return 'revoked';
  return Date.parse(row.expires_at) <= Date.parse(at) ? 'expired' : 'pending';
}

export function presentInvitation(row: InvitationRow, at: string): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    name: row.name,
    state: stateOf(row, at),
    invitedById: row.created_by_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    acceptedUserId: row.accepted_user_id,
    revokedAt: row.revoked_at,
  };
}
