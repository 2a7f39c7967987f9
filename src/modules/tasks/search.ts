// GET /v1/tasks/search (docs/search.md). Results are in relevance tiers (db/search/tiers.ts), and within
// a tier most recently changed first, which is seq order. SQLite answers text queries from the tagged
// FTS5 index alone; PostgreSQL walks the rows of a searched word (word-walk.ts) with SQL conditions;
// searches without text go through the list-and-search kit. Both apply the same visibility rule
// (visibility.ts).
import type { Context } from '../../context.ts';
import { counterSum, counterValue } from '../../db/counters.ts';
import {
  type Page,
  type PageRequest,
  type Tiered,
  type Total,
  tieredKey,
  tieredStart,
  totalOf,
} from '../../db/keyset.ts';
import { type Condition, searchPage } from '../../db/listing.ts';
import { distinctWords } from '../../db/search/fold.ts';
import type { Fts5Provider, MatchMode } from '../../db/search/index.ts';
import { pageTiers } from '../../db/search/tiers.ts';
import * as groups from '../groups/lookup.ts';
import * as projects from '../projects/service.ts';
import * as users from '../users/service.ts';
import { pairCounter, projectCounter, teamCounter } from './counts.ts';
import type { TaskFilter, TaskRow } from './repository.ts';
import * as repo from './repository.ts';
import { DELETED_COUNTER, TASK_COUNTER } from './service.ts';
import { type TaskRule, taskVisibility } from './visibility.ts';

export interface TaskSearch {
  name?: string;
  description?: string;
  projectName?: string;
  teamName?: string;
  assigneeName?: string;
  mode: MatchMode;
  teamId?: string;
  projectId?: string;
  // Extensions for sync jobs (docs/decisions.md §7), applied with AND like teamId and projectId.
  statusId?: string;
  assignedToId?: string;
  labelId?: string;
  /** Changed at or after this instant, in the stored form. */
  updatedSince?: string;
  includeDeleted: boolean;
}

const lower = (id: string | undefined) => id?.toLowerCase();

/** The sync filters; none of them is in the tagged FTS5 index. */
function syncFilter(s: TaskSearch): TaskFilter {
  return {
    statusId: lower(s.statusId),
    assignedToId: lower(s.assignedToId),
    labelId: lower(s.labelId),
    updatedSince: s.updatedSince,
  };
}

export type TaskPage = Page<Tiered<TaskRow>> & Total;

type Related = {
  column: 'project_id' | 'group_id' | 'assigned_to_id';
  tagOf: (id: string) => string;
  ids: string[];
};
type TextField = { field: 'name' | 'description'; words: string[] };

/**
 * The text fields of a search, each with its words, and the related-name fields as the ids of the
 * related objects the caller sees (a hidden project's or team's name matches nothing).
 */
async function fieldsOf(ctx: Context, s: TaskSearch) {
  const text: TextField[] = [];
  for (const field of ['name', 'description'] as const) {
    const words = distinctWords(s[field]);
    if (words.length > 0) text.push({ field, words });
  }
  const related: Related[] = [];
  const lookups = [
    [s.projectName, 'project_id', repo.TASK_TAGS.project, projects.projectIdsByName],
    [s.teamName, 'group_id', repo.TASK_TAGS.group, groups.teamIdsByName],
    [s.assigneeName, 'assigned_to_id', repo.TASK_TAGS.assignee, users.userIdsByName],
  ] as const;
  for (const [value, column, tagOf, lookup] of lookups) {
    const words = distinctWords(value);
    if (words.length > 0) related.push({ column, tagOf, ids: await lookup(ctx, words) });
  }
  return { text, related };
}

export async function searchTasks(ctx: Context, s: TaskSearch, page: PageRequest): Promise<TaskPage> {
  const [{ text, related }, rule] = await Promise.all([fieldsOf(ctx, s), taskVisibility(ctx)]);
  const search = ctx.search;
  if (search.kind === 'fts5' && text.length + related.length > 0)
    return searchFts(search, ctx, s, rule, text, related, page);
  const relatedFields = related.map((r) => repo.relatedTo(r.column, r.ids));
  // Text conditions on SQL: only PostgreSQL gets here with text (SQLite's tasks are a tagged target).
  const textFields =
    search.kind === 'tsvector' ? text.map((q) => ({ ...q, condition: repo.textMatches(search, q) })) : [];
  const fields = [...textFields.map((f) => f.condition), ...relatedFields];
  const sync = repo.taskConditions(syncFilter(s));
  const live = repo.taskConditions({ live: !s.includeDeleted });
  const filters: Condition[] = [
    ...rule.where,
    ...repo.taskConditions({ groupId: lower(s.teamId), projectId: lower(s.projectId) }),
    ...sync,
  ];
  const where = [...filters, ...live];
  // Without text, the page is one index walk and the total, where it can be, comes from counters:
  // every visible task, or one team's or one project's.
  const counted = fields.length === 0 && sync.length === 0 ? counterTotal(ctx, rule, s) : undefined;
  if (counted) {
    const order = repo.TASK_LIST.order;
    const [rows, total] = await Promise.all([
      pageTiers(['all'], tieredStart(order, page), page.limit, (_tier, after, n) =>
        repo.TASK_LIST.page(ctx.db, ctx.workspace.id, where, after, n),
      ),
      counted,
    ]);
    return { ...page.cut(rows, tieredKey(order)), ...totalOf(total) };
  }
  // PostgreSQL with text: the page walks the rows of a searched word (db/search/word-walk.ts).
  if (search.kind === 'tsvector' && textFields.length > 0) {
    const wordFields = [...textFields, ...relatedFields.map((condition) => ({ condition }))];
    const words = { fields: wordFields, mode: s.mode, where: filters, live: live[0] ?? null };
    return search.taggedPage(ctx, repo.TASK_FTS, words, page);
  }
  return searchPage(ctx, repo.TASK_LIST, { fields, mode: s.mode, where }, page);
}

/**
 * The total of a text-free list from counters rather than a count of every task there: of every
 * visible task (unfilteredTotal), or of one team's or one project's live tasks (counts.ts): the counter
 * itself when the caller sees every task (owners and admins); for others, less what the rule hides
 * from them there (visibility.ts: tasks of teams hidden from them, others' private tasks), which the
 * pair counters and the private-task indexes of migration 0005 answer. Undefined when it must be
 * counted (both filters, or one with deleted tasks too).
 */
function counterTotal(ctx: Context, rule: TaskRule, s: TaskSearch): Promise<number> | undefined {
  if (!s.teamId && !s.projectId) return unfilteredTotal(ctx, rule, s.includeDeleted);
  if (s.includeDeleted || (s.teamId && s.projectId)) return undefined;
  const ws = ctx.workspace.id;
  const me = ctx.actor.id;
  const seesAll = rule.where.length === 0;
  const hidden = rule.hiddenGroups;
  if (s.teamId) {
    const team = s.teamId.toLowerCase();
    if (seesAll) return counterValue(ctx.db, ws, teamCounter(team));
    if (hidden.includes(team)) return Promise.resolve(0);
    return Promise.all([
      counterValue(ctx.db, ws, teamCounter(team)),
      repo.countPrivateHidden(ctx.db, ws, me, { groupId: team, exceptGroups: [], liveOnly: true }),
    ]).then(([all, hiddenHere]) => all - hiddenHere);
  }
  if (s.projectId) {
    const project = s.projectId.toLowerCase();
    if (seesAll) return counterValue(ctx.db, ws, projectCounter(project));
    return Promise.all([
      counterValue(ctx.db, ws, projectCounter(project)),
      counterSum(
        ctx.db,
        ws,
        hidden.map((g) => pairCounter(g, project)),
      ),
      repo.countPrivateHidden(ctx.db, ws, me, { projectId: project, exceptGroups: hidden, liveOnly: true }),
    ]).then(([all, inHiddenTeams, hiddenHere]) => all - inHiddenTeams - hiddenHere);
  }
  return undefined;
}

/** SQLite with text: the tagged FTS5 query answers the page and the total without touching the table. */
function searchFts(
  search: Fts5Provider,
  ctx: Context,
  s: TaskSearch,
  rule: TaskRule,
  text: TextField[],
  related: Related[],
  page: PageRequest,
): Promise<TaskPage> {
  const exclude = [...rule.exclude];
  if (!s.includeDeleted) exclude.push({ tag: repo.TASK_TAGS.deleted });
  const require: string[][] = [];
  if (s.teamId) require.push([repo.TASK_TAGS.group(s.teamId.toLowerCase())]);
  if (s.projectId) require.push([repo.TASK_TAGS.project(s.projectId.toLowerCase())]);
  const fields = [...text, ...related.map((r) => ({ tags: r.ids.map(r.tagOf) }))];
  const where = repo.taskConditions(syncFilter(s));
  return search.taggedPage(ctx, repo.TASK_FTS, { fields, mode: s.mode, require, exclude, where }, page);
}

/**
 * The number of tasks the caller sees, without counting a million rows: the counters (service.ts),
 * less the rare parts hidden from this caller (private tasks not theirs, tasks of hidden teams).
 */
async function unfilteredTotal(ctx: Context, rule: TaskRule, includeDeleted: boolean): Promise<number> {
  const ws = ctx.workspace.id;
  const [all, deleted] = await Promise.all([
    counterValue(ctx.db, ws, TASK_COUNTER),
    includeDeleted ? 0 : counterValue(ctx.db, ws, DELETED_COUNTER),
  ]);
  if (rule.where.length === 0) return all - deleted;
  const hidden = rule.hiddenGroups;
  const [inHidden, privateHidden] = await Promise.all([
    repo.countInGroups(ctx.db, ws, hidden, !includeDeleted),
    repo.countPrivateHidden(ctx.db, ws, ctx.actor.id, { exceptGroups: hidden, liveOnly: !includeDeleted }),
  ]);
  return all - deleted - inHidden - privateHidden;
}
