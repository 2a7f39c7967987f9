// Search params as the URL holds them: what the router's validateSearch keeps of a team list's
// filters (`?status=…&assignee=…&q=…`) and of sign-in's `redirect`. Unknown keys and malformed values
// are dropped, never an error: a shared link from an older version still opens.

export interface TaskListSearch {
  /** A status id of the team. */
  status?: string;
  /** An assignee's user id. */
  assignee?: string;
  /** Text the task names must match (prefix words, as the API searches). */
  q?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_TEXT = 200;

function uuidOf(value: unknown): string | undefined {
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
}

export function parseTaskListSearch(search: Record<string, unknown>): TaskListSearch {
  const parsed: TaskListSearch = {};
  const status = uuidOf(search.status);
  const assignee = uuidOf(search.assignee);
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, MAX_TEXT) : '';
  if (status) parsed.status = status;
  if (assignee) parsed.assignee = assignee;
  if (q) parsed.q = q;
  return parsed;
}

/** The search with one filter removed (a chip's ×). */
export function withoutFilter(search: TaskListSearch, key: keyof TaskListSearch): TaskListSearch {
  const { [key]: _removed, ...rest } = search;
  return rest;
}

/**
 * Only a path of this app is a place to return to after signing in, never another origin: `//host` and
 * `/\\host` (which URL parsing reads as `//host`) are refused.
 */
export function localPath(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : undefined;
}
