// Live tasks per team and per project, kept as counters (db/counters.ts) in the same transaction as
// every change that creates, deletes, restores or moves a task, so that search.ts can answer the total
// of a list filtered by teamId or projectId without counting (migration 0004).
//
// One statement moves them all (db/counters.ts addToCounters), in name order (the workspace's own
// counters, `task` and `tasks.deleted`, sort first), so that two transactions touching the same counters
// take their row locks in one order.
import type { Context } from '../../context.ts';
import { addToCounters } from '../../db/counters.ts';
import type { TaskRow } from './repository.ts';

type Placed = Pick<TaskRow, 'group_id' | 'project_id' | 'deleted_at'>;

/**
 * The queue (context.ts inTransaction) of the writes that take the workspace's own task counters and
 * hold them to their commit: every create (`task`), delete and restore (`tasks.deleted`). On
 * PostgreSQL those of one workspace share a transaction and a commit instead of waiting for each
 * other's (db/group-commit.ts).
 */
export const COUNTER_QUEUE = 'task-counters';

export const teamCounter = (groupId: string) => `tasks.team.${groupId}`;
export const projectCounter = (projectId: string) => `tasks.project.${projectId}`;
/** A project's tasks in one team (a project's tasks may sit in several teams). */
export const pairCounter = (groupId: string, projectId: string) =>
  `tasks.team.${groupId}.project.${projectId}`;

/**
 * Moves the counters from where each task was (null: nowhere, it is new) to where it is now, and the
 * workspace's counters in `also` with them (a create reserves its publicIds here: one statement for
 * both); returns the moved counters' new values by name.
 */
export async function moveCounts(
  ctx: Context,
  changes: { before: Placed | null; after: Placed }[],
  also: [name: string, delta: number][] = [],
): Promise<Map<string, number>> {
  return addToCounters(ctx.db, ctx.workspace.id, countMoves(changes, also));
}

/** What moveCounts adds to each counter, by name. */
export function countMoves(
  changes: { before: Placed | null; after: Placed }[],
  also: [name: string, delta: number][] = [],
): Map<string, number> {
  const deltas = new Map<string, number>(also);
  const bump = (name: string, d: number) => deltas.set(name, (deltas.get(name) ?? 0) + d);
  const add = (row: Placed | null, d: number) => {
    if (!row || row.deleted_at !== null) return;
    bump(teamCounter(row.group_id), d);
    if (row.project_id) {
      bump(projectCounter(row.project_id), d);
      bump(pairCounter(row.group_id, row.project_id), d);
    }
  };
  for (const { before, after } of changes) {
    add(before, -1);
    add(after, 1);
  }
  return deltas;
}
