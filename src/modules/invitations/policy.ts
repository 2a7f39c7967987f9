// Who manages invitations: the workspace's owners (an invitation may make an owner). Pure functions.
import type { Actor } from '../../context.ts';

export function canManageInvitations(actor: Pick<Actor, 'role'>): boolean {
  return actor.role === 'owner';
}
