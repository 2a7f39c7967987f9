// Which cached queries a live event touches. The app's convention: the first element of a query key
// names what the query holds, and an event refreshes every query under the roots of its kind (only the
// queries on screen are read again; the others are marked stale and read when next shown):
//
//   task.*       tasks (lists, searches, My work), task (one task and what hangs off it), board;
//                project too when the task is in one (a project's page lists its tasks)
//   project.*    projects, project
//   document.*   documents, document
//   post.*       posts, comments, and task, project, document (a thread may live under its thing's key)
//   team.*, area.*  teams, team, areas, area
import type { LiveEvent } from '../api/live.ts';

const BY_KIND: Record<string, readonly string[]> = {
  task: ['tasks', 'task', 'board'],
  project: ['projects', 'project'],
  document: ['documents', 'document'],
  post: ['posts', 'comments', 'task', 'project', 'document'],
  team: ['teams', 'team', 'areas', 'area'],
  area: ['teams', 'team', 'areas', 'area'],
};

/** The query-key roots an event makes stale. */
export function rootsOf(event: LiveEvent): string[] {
  const roots = [...(BY_KIND[event.entityType] ?? [])];
  if (event.entityType === 'task' && event.projectId) roots.push('project');
  return roots;
}
