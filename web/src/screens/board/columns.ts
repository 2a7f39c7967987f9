// The board's columns from a team's set of tasks: one per status in the team's order, each holding the
// tasks that pass the browser's filters, in the chosen order, with the moves on their way shown where
// they go. Pure, so that web/test/logic.test.ts checks it.
import { localFilter, sortTasks, type TaskListSearch } from '../../lib/filters.ts';

interface ColumnTask {
  id: string;
  statusId: string;
  priority: boolean;
  dueDate: string | null;
  name: string;
  createdAt: string;
  updatedAt: string;
  publicId: number;
}

export interface Column<T> {
  statusId: string;
  tasks: T[];
}

/**
 * Tasks by status. A task whose move is on its way shows in its new column, as changed at the moment
 * of the move (so it goes to the top of a column ordered by last change, as it will be once saved).
 * A task in a status the team no longer has is left out.
 */
export function columnsOf<T extends ColumnTask>(
  tasks: readonly T[],
  statusIds: readonly string[],
  pending: ReadonlyMap<string, { statusId: string; at: string }>,
  search: TaskListSearch,
): Column<T>[] {
  const keep = localFilter(search);
  const byStatus = new Map<string, T[]>(statusIds.map((id) => [id, []]));
  for (const task of tasks) {
    if (!keep(task)) continue;
    const move = pending.get(task.id);
    const shown = move ? { ...task, statusId: move.statusId, updatedAt: move.at } : task;
    byStatus.get(shown.statusId)?.push(shown);
  }
  return statusIds.map((statusId) => ({
    statusId,
    tasks: sortTasks(byStatus.get(statusId) ?? [], search.sort),
  }));
}
