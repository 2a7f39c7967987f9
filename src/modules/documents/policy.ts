// Who sees a document (docs/decisions.md §2): the task rule. Whoever sees its team sees it; a private
// document only its creator and workspace owners and admins (a document has no assignee). Whoever
// sees a document may change it; not seeing is 404.
import type { Actor } from '../../context.ts';
import type { Visibility } from '../../db/types.ts';
import { canSeeTask } from '../tasks/policy.ts';

export interface DocumentFacts {
  groupId: string;
  visibility: Visibility;
  createdById: string;
}

export function canSeeDocument(
  actor: Pick<Actor, 'id' | 'role'>,
  doc: DocumentFacts,
  visibleGroups: { all: boolean; visible: Set<string> },
): boolean {
  return canSeeTask(actor, { ...doc, assignedToId: null }, visibleGroups);
}
