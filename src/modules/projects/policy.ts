// Projects belong to one or more teams and are seen by whoever sees at least one of them (workspace
// owners and admins see all). Anyone who sees a project may change it, except guests, who only read.
import type { Actor } from '../../context.ts';

export function canSeeProject(
  teamIds: string[],
  visibleGroups: { all: boolean; visible: Set<string> },
): boolean {
  return visibleGroups.all || teamIds.some((id) => visibleGroups.visible.has(id));
}

export function canChangeProjects(actor: Pick<Actor, 'role'>): boolean {
  return actor.role !== 'guest';
}
