// GET /v1/tasks/search (docs/search.md). Results are in relevance tiers (matchMode=any with several
// fields: all fields first, then some), and within a tier most recently changed first, which is seq
// order. SQLite answers text queries from the tagged FTS5 index alone; PostgreSQL, and SQLite without
// text, use SQL conditions on the tasks table.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Context } from '../../context.ts';
import { counterValue } from '../../db/counters.ts';
import { distinctWords } from '../../db/search/fold.ts';
import {
  type Exclusion,
  expandPrefixes,
  type TaggedField,
  type Tier,
  taggedMatch,
} from '../../db/search/fts5.ts';
import { type MatchMode, SEARCH_TARGETS, tag } from '../../db/search/index.ts';
import { pageTiers, tiersOf } from '../../db/search/tiers.ts';
import * as groups from '../groups/lookup.ts';
import * as projects from '../projects/service.ts';
import * as users from '../users/service.ts';
import { seesAllPrivateTasks } from './policy.ts';
import type { TaskRow } from './repository.ts';
import * as repo from './repository.ts';
import { DELETED_COUNTER, TASK_COUNTER } from './service.ts';

export interface TaskSearch {
  name?: string;
  description?: string;
  projectName?: string;
  teamName?: string;
  assigneeName?: string;
  mode: MatchMode;
  teamId?: string;
  projectId?: string;
  includeDeleted: boolean;
}

export interface TaskPage {
  rows: { row: TaskRow; tier: number }[];
  total: number;
}

type Related = { column: 'project_id' | 'group_id' | 'assigned_to_id'; kind: string; ids: string[] };

/** The text fields of a search, each with its words, and the related-name fields as id sets. */
async function fieldsOf(ctx: Context, s: TaskSearch) {
  const text: { field: string; words: string[] }[] = [];
  for (const field of ['name', 'description'] as const) {
    const words = distinctWords(s[field]);
    if (words.length > 0) text.push({ field, words });
  }
  const related: Related[] = [];
  const lookups = [
    [s.projectName, 'project_id', 'p', projects.projectIdsByName],
    [s.teamName, 'group_id', 'g', groups.teamIdsByName],
    [s.assigneeName, 'assigned_to_id', 'a', users.userIdsByName],
  ] as const;
  for (const [value, column, kind, lookup] of lookups) {
    const words = distinctWords(value);
    if (words.length > 0) related.push({ column, kind, ids: await lookup(ctx, words) });
  }
  return { text, related };
}

export async function searchTasks(
  ctx: Context,
  s: TaskSearch,
  page: { limit: number; after?: { tier: number; after?: number } },
): Promise<TaskPage> {
  const { text, related } = await fieldsOf(ctx, s);
  const hasText = text.length + related.length > 0;
  return ctx.search.kind === 'fts5' && hasText
    ? searchFts(ctx, s, text, related, page)
    : searchSql(ctx, s, text, related, page);
}

async function searchFts(
  ctx: Context,
  s: TaskSearch,
  text: { field: string; words: string[] }[],
  related: Related[],
  page: { limit: number; after?: { tier: number; after?: number } },
): Promise<TaskPage> {
  const expanded = await Promise.all(
    text.map(async (t) => ({
      ...t,
      terms: await expandPrefixes(ctx.db, SEARCH_TARGETS.tasks, ctx.workspace.code, t.words),
    })),
  );
  const fields: TaggedField[] = [
    ...expanded,
    ...related.map((r) => ({ tags: r.ids.map((id) => tag(r.kind, id)) })),
  ];
  const exclude: Exclusion[] = [];
  if (!s.includeDeleted) exclude.push({ tag: 'dead' });
  if (!seesAllPrivateTasks(ctx.actor)) {
    exclude.push({ tag: 'vprivate', unless: [tag('c', ctx.actor.id), tag('a', ctx.actor.id)] });
    for (const id of (await groups.groupVisibility(ctx)).invisible) exclude.push({ tag: tag('g', id) });
  }
  const require: string[][] = [];
  if (s.teamId) require.push([tag('g', s.teamId.toLowerCase())]);
  if (s.projectId) require.push([tag('p', s.projectId.toLowerCase())]);
  const query = { workspaceCode: ctx.workspace.code, fields, mode: s.mode, require, exclude };

  const tiers: Tier[] = s.mode === 'any' && fields.length > 1 ? ['all', 'rest'] : ['all'];
  const found = await pageTiers(tiers.length, page.after, page.limit, async (tier, afterSeq, n) => {
    const match = taggedMatch(query, tiers[tier]!);
    return match ? repo.ftsPage(ctx.db, match, afterSeq, n) : [];
  });
  const bySeq = new Map(
    (
      await repo.findTasksBySeq(
        ctx.db,
        ctx.workspace.id,
        found.map((f) => f.row),
      )
    ).map((r) => [Number(r.seq), r]),
  );
  const rows = found.flatMap(({ row: seq, tier }) => {
    const row = bySeq.get(seq);
    return row ? [{ row, tier }] : [];
  });
  const all = taggedMatch(query, 'matching');
  return { rows, total: all ? await repo.ftsCount(ctx.db, all) : 0 };
}

async function searchSql(
  ctx: Context,
  s: TaskSearch,
  text: { field: string; words: string[] }[],
  related: Related[],
  page: { limit: number; after?: { tier: number; after?: number } },
): Promise<TaskPage> {
  const fields: (RawBuilder<SqlBool> | null)[] = [
    ...text.map((q) => ctx.search.matches(SEARCH_TARGETS.tasks, 't', [q], 'all')),
    ...related.map((r) =>
      r.ids.length > 0 ? sql<SqlBool>`${sql.ref(`t.${r.column}`)} in (${sql.join(r.ids)})` : null,
    ),
  ];
  const where: RawBuilder<SqlBool>[] = [];
  if (!s.includeDeleted) where.push(sql<SqlBool>`t.deleted_at is null`);
  if (s.teamId) where.push(sql<SqlBool>`t.group_id = ${s.teamId.toLowerCase()}`);
  if (s.projectId) where.push(sql<SqlBool>`t.project_id = ${s.projectId.toLowerCase()}`);
  if (!seesAllPrivateTasks(ctx.actor)) {
    const visibility = await groups.groupVisibility(ctx);
    if (!visibility.all) {
      const visible = [...visibility.visible];
      where.push(
        visible.length > 0 ? sql<SqlBool>`t.group_id in (${sql.join(visible)})` : sql<SqlBool>`1 = 0`,
      );
    }
    where.push(
      sql<SqlBool>`(t.visibility = 'workspace' or t.created_by_id = ${ctx.actor.id} or t.assigned_to_id = ${ctx.actor.id})`,
    );
  }
  const { tiers, matching } = tiersOf(fields, s.mode);
  const q = (extra: RawBuilder<SqlBool> | null) => ({
    workspaceId: ctx.workspace.id,
    where: extra ? [...where, extra] : where,
  });
  const rows = await pageTiers(tiers.length, page.after, page.limit, (tier, afterSeq, n) =>
    repo.pageBySeq(ctx.db, q(tiers[tier]!), afterSeq, n),
  );
  let total: number;
  if (tiers.length === 0) total = 0;
  else if (matching === null && !s.teamId && !s.projectId)
    total = await unfilteredTotal(ctx, s.includeDeleted);
  else total = await repo.countTasks(ctx.db, q(matching));
  return { rows, total };
}

/**
 * The number of tasks the caller sees, without counting a million rows: the counters (service.ts),
 * less the rare parts hidden from this caller (private tasks not theirs, tasks of hidden teams).
 */
async function unfilteredTotal(ctx: Context, includeDeleted: boolean): Promise<number> {
  const ws = ctx.workspace.id;
  const [all, deleted] = await Promise.all([
    counterValue(ctx.db, ws, TASK_COUNTER),
    includeDeleted ? 0 : counterValue(ctx.db, ws, DELETED_COUNTER),
  ]);
  if (seesAllPrivateTasks(ctx.actor)) return all - deleted;
  const hidden = (await groups.groupVisibility(ctx)).invisible;
  const [inHidden, privateHidden] = await Promise.all([
    repo.countInGroups(ctx.db, ws, hidden, !includeDeleted),
    repo.countPrivateHidden(ctx.db, ws, ctx.actor.id, hidden, !includeDeleted),
  ]);
  return all - deleted - inHidden - privateHidden;
}
