// Who may mint and revoke tokens. Anyone may for themselves; owners and admins for others, except that
// an admin cannot act as an owner.
import type { Actor } from '../../context.ts';
import type { WorkspaceRole } from '../../db/types.ts';
import { isWorkspaceAdmin } from '../users/policy.ts';

export function canIssueTokenFor(
  actor: Pick<Actor, 'id' | 'role'>,
  user: { id: string; role: WorkspaceRole },
): boolean {
  if (user.id === actor.id) return true;
  if (!isWorkspaceAdmin(actor)) return false;
  return user.role !== 'owner' || actor.role === 'owner';
}

export function canRevokeToken(actor: Pick<Actor, 'id' | 'role'>, token: { userId: string }): boolean {
  return token.userId === actor.id || isWorkspaceAdmin(actor);
}
