// A task's field values in words: what the conflict notice and the history show.
import type { Task } from '../../api/index.ts';
import type { Group, TaskChanges } from '../../api/tasks.ts';
import { dueDay } from '../../lib/due.ts';

export const FIELD_NAMES: Record<keyof TaskChanges, string> = {
  name: 'Name',
  description: 'Description',
  statusId: 'Status',
  assignedToId: 'Assignee',
  labelIds: 'Labels',
  dueDate: 'Due date',
  priority: 'Priority',
  projectId: 'Project',
  visibility: 'Visibility',
};

/** A due date as the date input's value (`2026-11-21`), the day it means (lib/due.ts). */
export function dateInputValue(iso: string | null): string {
  if (!iso) return '';
  const day = String(dueDay(iso));
  return `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
}

const DAY = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** A field's value in words, names looked up in the task's group (statuses, members, labels). */
export function describeValue(
  field: keyof TaskChanges,
  value: unknown,
  task: Task,
  group: Group | undefined,
): string {
  switch (field) {
    case 'statusId':
      return group?.taskStatuses?.find((s) => s.id === value)?.name ?? 'another status';
    case 'assignedToId':
      if (value === null) return 'No one';
      return group?.members?.find((m) => m.id === value)?.username ?? 'someone else';
    case 'labelIds': {
      const ids = Array.isArray(value) ? (value as string[]) : [];
      if (ids.length === 0) return 'No labels';
      return ids.map((id) => group?.taskLabels?.find((l) => l.id === id)?.name ?? 'a label').join(', ');
    }
    case 'dueDate': {
      const input = dateInputValue(typeof value === 'string' ? value : null);
      return input ? DAY.format(new Date(`${input}T12:00:00`)) : 'No due date';
    }
    case 'priority':
      return value ? 'High' : 'Normal';
    case 'projectId':
      if (value === null) return 'No project';
      return value === task.projectId && task.project ? task.project.name : 'another project';
    case 'visibility':
      return value === 'private' ? 'Private' : 'Workspace';
    default:
      return typeof value === 'string' ? value : '';
  }
}
