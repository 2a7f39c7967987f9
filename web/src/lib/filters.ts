// Search params as the URL holds them: what the router's validateSearch keeps of a team's filters (the
// list and the board share them: `?status=…&assignee=…&label=…&project=…&priority=true&dueFrom=…
// &dueTo=…&sort=…&deleted=true&q=…`) and of sign-in's `redirect`. Unknown keys and malformed values are
// dropped, never an error: a shared link from an older version still opens.
//
// Which filters the API applies and which the browser does: the task search takes a status, an
// assignee, a label, a project, name words and includeDeleted; it has no priority or due-date filter
// and one order (most recently changed first). So priority, the due range and a sort other than the
// API's are applied here, to the team's whole (server-filtered) set of tasks (localFilter, sortTasks).

import { dueDay } from './due.ts';

export const SORTS = [
  { key: 'updated', label: 'Recently changed' },
  { key: 'created', label: 'Newest first' },
  { key: 'due', label: 'Due date' },
  { key: 'priority', label: 'Priority first' },
  { key: 'name', label: 'Name' },
] as const;

export type TaskSort = (typeof SORTS)[number]['key'];

export interface TaskListSearch {
  /** A status id of the team. */
  status?: string;
  /** An assignee's user id. */
  assignee?: string;
  /** A label id of the team. */
  label?: string;
  /** A project id. */
  project?: string;
  /** Only tasks marked priority. */
  priority?: true;
  /** Due on or after this day (YYYY-MM-DD). */
  dueFrom?: string;
  /** Due on or before this day (YYYY-MM-DD). */
  dueTo?: string;
  /** An order other than the API's (most recently changed first, which is never in the URL). */
  sort?: Exclude<TaskSort, 'updated'>;
  /** Deleted tasks shown too. */
  deleted?: true;
  /** Text the task names must match (prefix words, as the API searches). */
  q?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MAX_TEXT = 200;

function uuidOf(value: unknown): string | undefined {
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
}

/** A calendar day that exists (2026-02-30 does not), as written in the URL. */
function dayOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DAY.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day
    ? value
    : undefined;
}

/** A flag: `true` as the router parses it (JSON) or as typed (`true`, `1`). */
function flagOf(value: unknown): true | undefined {
  return value === true || value === 'true' || value === 1 || value === '1' ? true : undefined;
}

function sortOf(value: unknown): TaskListSearch['sort'] {
  return SORTS.some((sort) => sort.key === value) && value !== 'updated'
    ? (value as TaskListSearch['sort'])
    : undefined;
}

export function parseTaskListSearch(search: Record<string, unknown>): TaskListSearch {
  // The router reads `?q=142` as a number.
  const text = typeof search.q === 'number' ? String(search.q) : search.q;
  const q = typeof text === 'string' ? text.trim().slice(0, MAX_TEXT) : '';
  const parsed: TaskListSearch = {
    status: uuidOf(search.status),
    assignee: uuidOf(search.assignee),
    label: uuidOf(search.label),
    project: uuidOf(search.project),
    priority: flagOf(search.priority),
    dueFrom: dayOf(search.dueFrom),
    dueTo: dayOf(search.dueTo),
    sort: sortOf(search.sort),
    deleted: flagOf(search.deleted),
    q: q || undefined,
  };
  // A range given backwards is the same range.
  if (parsed.dueFrom && parsed.dueTo && parsed.dueFrom > parsed.dueTo)
    [parsed.dueFrom, parsed.dueTo] = [parsed.dueTo, parsed.dueFrom];
  for (const key of Object.keys(parsed) as (keyof TaskListSearch)[])
    if (parsed[key] === undefined) delete parsed[key];
  return parsed;
}

/** The search with one filter removed (a chip's ×). */
export function withoutFilter(search: TaskListSearch, key: keyof TaskListSearch): TaskListSearch {
  const { [key]: _removed, ...rest } = search;
  return rest;
}

/** The search with one filter set, or removed when the value is empty. */
export function withFilter<K extends keyof TaskListSearch>(
  search: TaskListSearch,
  key: K,
  value: TaskListSearch[K] | '' | undefined,
): TaskListSearch {
  return value === '' || value === undefined ? withoutFilter(search, key) : { ...search, [key]: value };
}

/** The filters the API applies (the rest are the browser's: localFilter, sortTasks). */
export function serverFilters(search: TaskListSearch, withStatus: boolean) {
  return {
    ...(withStatus && search.status ? { statusId: search.status } : {}),
    ...(search.assignee ? { assigneeId: search.assignee } : {}),
    ...(search.label ? { labelId: search.label } : {}),
    ...(search.project ? { projectId: search.project } : {}),
    ...(search.q ? { text: search.q } : {}),
    ...(search.deleted ? { includeDeleted: true } : {}),
  };
}

/** A filter or an order the API does not have is in force: the list reads the whole set and applies it. */
export function needsWholeSet(search: TaskListSearch): boolean {
  return Boolean(search.priority || search.dueFrom || search.dueTo || search.sort);
}

interface Filterable {
  priority: boolean;
  dueDate: string | null;
}

/** The yyyymmdd number of a URL day (2026-11-18 → 20261118), comparable with dueDay. */
function dayNumber(day: string): number {
  return Number(day.replaceAll('-', ''));
}

/** The browser's part of the filters: priority and the due range (a range leaves out undated tasks). */
export function localFilter(search: TaskListSearch): <T extends Filterable>(task: T) => boolean {
  const from = search.dueFrom ? dayNumber(search.dueFrom) : undefined;
  const to = search.dueTo ? dayNumber(search.dueTo) : undefined;
  return (task) => {
    if (search.priority && !task.priority) return false;
    if (from === undefined && to === undefined) return true;
    if (task.dueDate === null) return false;
    const day = dueDay(task.dueDate);
    return (from === undefined || day >= from) && (to === undefined || day <= to);
  };
}

interface Sortable extends Filterable {
  name: string;
  createdAt: string;
  updatedAt: string;
  publicId: number;
}

const byUpdated = (a: Sortable, b: Sortable) => b.updatedAt.localeCompare(a.updatedAt);

const COMPARE: Record<TaskSort, (a: Sortable, b: Sortable) => number> = {
  updated: byUpdated,
  created: (a, b) => b.createdAt.localeCompare(a.createdAt) || b.publicId - a.publicId,
  // Earliest first; tasks without a due date last.
  due: (a, b) => {
    if (a.dueDate === b.dueDate) return byUpdated(a, b);
    if (a.dueDate === null) return 1;
    if (b.dueDate === null) return -1;
    return Date.parse(a.dueDate) - Date.parse(b.dueDate) || byUpdated(a, b);
  },
  priority: (a, b) => Number(b.priority) - Number(a.priority) || byUpdated(a, b),
  name: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || byUpdated(a, b),
};

/** A copy in the chosen order (the API's, most recently changed first, when none is chosen). */
export function sortTasks<T extends Sortable>(tasks: readonly T[], sort: TaskSort | undefined): T[] {
  return [...tasks].sort(COMPARE[sort ?? 'updated']);
}

/**
 * Only a path of this app is a place to return to after signing in, never another origin: `//host` and
 * `/\\host` (which URL parsing reads as `//host`) are refused.
 */
export function localPath(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : undefined;
}
