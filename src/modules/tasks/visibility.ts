// Who sees which tasks, as one rule in every form a path needs (db/listing.ts VisibilityRule):
// - the check of one task: policy.canSeeTask;
// - SQL conditions on the tasks' listing (repository.ts), for lists, searches and totals on
//   PostgreSQL (and SQLite without text);
// - exclusions for SQLite's tagged search index, over the tags TASK_INDEX writes for every task
//   (repository.ts TASK_TAGS, which both name).
// A task is of a group: that part is db/listing.ts groupRowRule, as for the other resources of a group.
import { type Context, perRequest } from '../../context.ts';
import { groupRowRule, type VisibilityRule } from '../../db/listing.ts';
import type { Exclusion } from '../../db/search/fts5.ts';
import * as groups from '../groups/lookup.ts';
import { canSeeTask, seesAllPrivateTasks, type TaskFacts } from './policy.ts';
import type { TaskRow } from './repository.ts';
import { inGroups, openTo, TASK_TAGS } from './repository.ts';

export function taskFacts(row: TaskRow): TaskFacts {
  return {
    groupId: row.group_id,
    visibility: row.visibility,
    createdById: row.created_by_id,
    assignedToId: row.assigned_to_id,
  };
}

export interface TaskRule extends VisibilityRule<TaskFacts> {
  exclude: Exclusion[];
  /** Groups hidden from the caller (their tasks are too): what an unfiltered total subtracts. */
  hiddenGroups: string[];
}

/** The caller's task rule, made once per request. */
export function taskVisibility(ctx: Context): Promise<TaskRule> {
  return perRequest(ctx, 'tasks.visibility', async () => {
    const visibility = await groups.groupVisibility(ctx);
    const sees = (facts: TaskFacts) => canSeeTask(ctx.actor, facts, visibility);
    if (seesAllPrivateTasks(ctx.actor)) return { sees, where: [], exclude: [], hiddenGroups: [] };
    const me = ctx.actor.id;
    const ofGroup = groupRowRule(visibility, inGroups);
    const exclude: Exclusion[] = [
      { tag: TASK_TAGS.private, unless: [TASK_TAGS.creator(me), TASK_TAGS.assignee(me)] },
      ...ofGroup.hidden.map((id) => ({ tag: TASK_TAGS.group(id) })),
    ];
    return { sees, where: [openTo(me), ...ofGroup.where], exclude, hiddenGroups: ofGroup.hidden };
  });
}
