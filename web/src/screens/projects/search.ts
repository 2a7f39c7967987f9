// The projects list's URL: `?status=<project status id>&archived=true`. Forgiving, as the task list's
// filters are: an unknown key or a malformed value is dropped, so an old or hand-edited link still opens.
import { isYes } from '../documents/search.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ProjectListSearch {
  /** A project status id: only the projects in that status. */
  status?: string;
  /** Archived projects listed too (marked). */
  archived?: true;
}

export function parseProjectListSearch(search: Record<string, unknown>): ProjectListSearch {
  const parsed: ProjectListSearch = {};
  if (typeof search.status === 'string' && UUID.test(search.status)) {
    parsed.status = search.status.toLowerCase();
  }
  if (isYes(search.archived)) parsed.archived = true;
  return parsed;
}
