// A team's whole set of tasks (the board's columns; the list when a filter or an order the API lacks is
// in force) and a card's move to another status, with `If-Match`. The key's root is `board`, which
// every task event makes stale (web/src/live/roots.ts).
import { isCairnError } from '@cairn/client';
import { queryOptions } from '@tanstack/react-query';
import { cairn, PAGE_SIZE } from './client.ts';
import { type Task, type TeamTaskFilters, teamTaskSearch } from './index.ts';

/** Tasks read for a board at most (pages of 100, one after the other); the board says when it stops. */
export const BOARD_LIMIT = 5_000;

export interface TaskSet {
  tasks: Task[];
  /** False when the set stopped at BOARD_LIMIT. */
  complete: boolean;
}

export function teamTaskSetQuery(teamId: string, filters: TeamTaskFilters) {
  return queryOptions({
    queryKey: ['board', teamId, filters],
    queryFn: async ({ signal }): Promise<TaskSet> => {
      const tasks: Task[] = [];
      for await (const task of cairn.paginate('searchTasks', {
        params: { query: teamTaskSearch(teamId, filters) },
        pageSize: PAGE_SIZE,
        signal,
      })) {
        if (tasks.length >= BOARD_LIMIT) return { tasks, complete: false };
        tasks.push(task);
      }
      return { tasks, complete: true };
    },
  });
}

/**
 * The `If-Match` naming the version the person saw: the API compares the version alone, the task's
 * `updatedAt` in base-36 milliseconds (docs/reliability.md, "Concurrency"), as api/tasks.ts does.
 */
function versionTag(task: Pick<Task, 'updatedAt'>): string {
  return `"${Date.parse(task.updatedAt).toString(36)}-web"`;
}

/** Moves a task to a status, from the version `base`: 412 precondition_failed if it changed since. */
export function moveTask(base: Pick<Task, 'id' | 'updatedAt'>, statusId: string): Promise<Task> {
  return cairn.upsertTask({
    body: { id: base.id, statusId },
    ifMatch: versionTag(base),
    params: { query: { expand: ['status', 'assignee'] } },
  });
}

/** The task as it is now, as the board shows it (after a 412). */
export function readBoardTask(id: string): Promise<Task> {
  return cairn.getTask({ params: { path: { id }, query: { expand: ['status', 'assignee'] } } });
}

export const isMoveConflict = (error: unknown) => isCairnError(error, 'precondition_failed');
