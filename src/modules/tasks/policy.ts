// Who sees a task (docs/decisions.md §2): whoever sees its team, and for a private task only its creator, its
// assignee and workspace owners and admins. Whoever sees a task may change it; creating one needs a
// team the caller sees. Not seeing is 404.
import type { Actor } from '../../context.ts';
import { seesGroup } from '../../db/listing.ts';
import type { Visibility } from '../../db/types.ts';
import { isWorkspaceAdmin } from '../users/policy.ts';

export interface TaskFacts {
  groupId: string;
  visibility: Visibility;
  createdById: string;
  assignedToId: string | null;
}

export function canSeeTask(
  actor: Pick<Actor, 'id' | 'role'>,
  task: TaskFacts,
  visibleGroups: { all: boolean; visible: Set<string> },
): boolean {
  if (isWorkspaceAdmin(actor)) return true;
  if (!seesGroup(visibleGroups, task.groupId)) return false;
  return task.visibility === 'workspace' || task.createdById === actor.id || task.assignedToId === actor.id;
}

/** Whether searches must filter private tasks for this caller. */
export function seesAllPrivateTasks(actor: Pick<Actor, 'role'>): boolean {
  return isWorkspaceAdmin(actor);
}
