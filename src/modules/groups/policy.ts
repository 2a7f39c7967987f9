// Who sees and changes teams and areas (docs/decisions.md §2). A group with privacy "workspace" is seen by
// every non-guest; a private one only by its members and workspace owners and admins; guests see only the
// groups they belong to. Changing a group takes a workspace owner or admin, or an owner of the group. Not
// seeing is 404 (the route never says it exists); seeing but not changing is 403.
import type { Actor } from '../../context.ts';
import type { MemberRole, Privacy } from '../../db/types.ts';
import { isWorkspaceAdmin } from '../users/policy.ts';

/** Which groups a caller's lists and searches may include. */
export type GroupScope = 'all' | 'workspace_or_member' | 'member_only';

export function groupScope(actor: Pick<Actor, 'role'>): GroupScope {
  if (isWorkspaceAdmin(actor)) return 'all';
  return actor.role === 'guest' ? 'member_only' : 'workspace_or_member';
}

export function canSeeGroup(
  actor: Pick<Actor, 'role'>,
  group: { privacy: Privacy },
  membership: MemberRole | null,
): boolean {
  const scope = groupScope(actor);
  if (scope === 'all' || membership !== null) return true;
  return scope === 'workspace_or_member' && group.privacy === 'workspace';
}

export function canCreateGroup(actor: Pick<Actor, 'role'>): boolean {
  return actor.role !== 'guest';
}

export function canEditGroup(actor: Pick<Actor, 'role'>, membership: MemberRole | null): boolean {
  return isWorkspaceAdmin(actor) || (actor.role !== 'guest' && membership === 'owner');
}
