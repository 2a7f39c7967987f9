// Search across kinds, for the command palette and the search page: the API's four search endpoints
// (prefix matching on words, docs/search.md), one query per kind so that one kind failing or being slow
// does not hold back the others. Each key starts with its kind's root (`tasks`, `projects`, …), so the
// live stream's invalidation of a kind (web/src/live/roots.ts) refreshes open results too.
import { isCairnError, type Schema } from '@cairn/client';
import { queryOptions } from '@tanstack/react-query';
import { taskNumberOf } from '../lib/search-words.ts';
import { cairn } from './client.ts';

export type FoundTask = Schema<'Task'>;
export type FoundProject = Schema<'Project'>;
export type FoundDocument = Schema<'Document'>;
export type FoundTeam = Schema<'Team'>;

/** Results per kind: a few in the palette, a page on the search page. */
export const PALETTE_LIMIT = 5;
export const SEARCH_PAGE_LIMIT = 25;

const STALE_MS = 10_000;

/** Tasks whose name has words starting with the typed words, most recently changed first; plus the
 *  task whose number was typed (`ENG-142`), first, when there is one the person may see. */
export function taskSearchQuery(text: string, limit: number) {
  return queryOptions({
    queryKey: ['tasks', 'search', text, limit],
    queryFn: async ({ signal }): Promise<FoundTask[]> => {
      const number = taskNumberOf(text);
      const [page, byNumber] = await Promise.all([
        cairn.searchTasks({
          params: { query: { name: text, expand: ['status', 'team', 'area'], limit } },
          signal,
        }),
        number === undefined ? undefined : taskByNumber(number, signal),
      ]);
      const rest = page.data.filter((task) => task.id !== byNumber?.id);
      return byNumber ? [byNumber, ...rest].slice(0, limit) : page.data;
    },
    staleTime: STALE_MS,
  });
}

async function taskByNumber(number: number, signal: AbortSignal): Promise<FoundTask | undefined> {
  try {
    return await cairn.getTask({
      params: { path: { id: String(number) }, query: { expand: ['status', 'team', 'area'] } },
      signal,
    });
  } catch (error) {
    if (isCairnError(error, 'not_found')) return undefined;
    throw error;
  }
}

export function projectSearchQuery(text: string, limit: number) {
  return queryOptions({
    queryKey: ['projects', 'search', text, limit],
    queryFn: async ({ signal }) =>
      (await cairn.searchProjects({ params: { query: { name: text, expand: ['teams'], limit } }, signal }))
        .data,
    staleTime: STALE_MS,
  });
}

export function documentSearchQuery(text: string, limit: number) {
  return queryOptions({
    queryKey: ['documents', 'search', text, limit],
    queryFn: async ({ signal }) =>
      (await cairn.searchDocuments({ params: { query: { name: text, expand: ['team'], limit } }, signal }))
        .data,
    staleTime: STALE_MS,
  });
}

export function teamSearchQuery(text: string, limit: number) {
  return queryOptions({
    queryKey: ['teams', 'search', text, limit],
    queryFn: async ({ signal }) =>
      (await cairn.searchTeams({ params: { query: { name: text, expand: ['none'], limit } }, signal })).data,
    staleTime: STALE_MS,
  });
}
