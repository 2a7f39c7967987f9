// Who sees which tasks, as one rule in every form a path needs (db/listing.ts VisibilityRule):
// - the check of one task: policy.canSeeTask;
// - SQL conditions on alias t, for lists, searches and totals on PostgreSQL (and SQLite without text);
// - exclusions for SQLite's tagged search index, over the tags `taskTags` writes for every task.
// The tags and the exclusions are defined side by side here so that they cannot drift apart.
import { type SqlBool, sql } from 'kysely';
import { type Context, perRequest } from '../../context.ts';
import type { VisibilityRule } from '../../db/listing.ts';
import type { Exclusion } from '../../db/search/fts5.ts';
import { tag } from '../../db/search/index.ts';
import * as groups from '../groups/lookup.ts';
import { canSeeTask, seesAllPrivateTasks, type TaskFacts } from './policy.ts';
import type { TaskRow } from './repository.ts';

/** A task's filter tokens in SQLite's search index (db/search/fts5.ts). */
export function taskTags(row: TaskRow): string[] {
  const tags = [tag('g', row.group_id), tag('c', row.created_by_id)];
  if (row.deleted_at !== null) tags.push('dead');
  if (row.visibility === 'private') tags.push('vprivate');
  if (row.project_id) tags.push(tag('p', row.project_id));
  if (row.assigned_to_id) tags.push(tag('a', row.assigned_to_id));
  return tags;
}

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
    const where = [
      sql<SqlBool>`(t.visibility = 'workspace' or t.created_by_id = ${me} or t.assigned_to_id = ${me})`,
    ];
    const exclude: Exclusion[] = [{ tag: 'vprivate', unless: [tag('c', me), tag('a', me)] }];
    if (!visibility.all) {
      const visible = [...visibility.visible];
      where.push(
        visible.length > 0 ? sql<SqlBool>`t.group_id in (${sql.join(visible)})` : sql<SqlBool>`1 = 0`,
      );
      for (const id of visibility.invisible) exclude.push({ tag: tag('g', id) });
    }
    return { sees, where, exclude, hiddenGroups: visibility.invisible };
  });
}
