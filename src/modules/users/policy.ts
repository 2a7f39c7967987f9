// Who may manage people in a workspace. Pure functions of the actor; tested in policy.test.ts.
import type { Actor } from '../../context.ts';
import type { WorkspaceRole } from '../../db/types.ts';

export function isWorkspaceAdmin(actor: Pick<Actor, 'role'>): boolean {
  return actor.role === 'owner' || actor.role === 'admin';
}

/** Owners and admins add people; only an owner may make another owner. */
export function canCreateUser(actor: Pick<Actor, 'role'>, role: WorkspaceRole): boolean {
  if (!isWorkspaceAdmin(actor)) return false;
  return role !== 'owner' || actor.role === 'owner';
}

/** Guests see only themselves and the people of the groups they belong to. */
export function seesWholeDirectory(actor: Pick<Actor, 'role'>): boolean {
  return actor.role !== 'guest';
}

/** Owners and admins change anyone (only an owner touches owners); people rename themselves. */
export function canUpdateUser(
  actor: Pick<Actor, 'id' | 'role'>,
  user: { id: string; role: WorkspaceRole },
  change: { role?: WorkspaceRole; email?: string },
): boolean {
  if (isWorkspaceAdmin(actor)) {
    const touchesOwner = user.role === 'owner' || change.role === 'owner';
    return !touchesOwner || actor.role === 'owner';
  }
  return user.id === actor.id && change.role === undefined && change.email === undefined;
}
