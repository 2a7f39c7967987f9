// One task and what hangs off it: the task (with its description's Markdown), its group (a team, or the
// area of a task made from a template), its comments and their replies, its history from the events
// feed, the saves (with If-Match), delete and restore, and creating a task (plainly or from a template).
// Query keys follow the live convention (web/src/live/roots.ts): `task`, `posts`, `events`, `projects`.
import { type Answer, isCairnError, type Schema } from '@cairn/client';
import { queryOptions } from '@tanstack/react-query';
import { cairn, PAGE_SIZE } from './client.ts';
import type { Task, Team } from './index.ts';

export type Post = Schema<'Post'>;
export type TaskTemplate = Schema<'TaskTemplate'>;
export type FeedEvent = Answer<'listEvents'>['data'][number];

/** What a task's page needs of its group, a team or an area: members, statuses and labels. */
export type Group = Pick<Team, 'id' | 'name' | 'publicId' | 'members' | 'taskStatuses' | 'taskLabels'>;

/** The fields a save may change (the create-or-update body without its id). */
export interface TaskChanges {
  name?: string;
  description?: string;
  statusId?: string;
  assignedToId?: string | null;
  labelIds?: string[];
  dueDate?: string | null;
  priority?: boolean;
  projectId?: string | null;
  visibility?: 'workspace' | 'private';
}

const TASK_EXPAND = ['status', 'assignee', 'team', 'area', 'project'] as const;

/**
 * The task's number from what a link may carry: `142`, `ENG-142` (a team's code and the number, as
 * people say it) or the task's UUID. The API takes the number or the UUID.
 */
function taskIdOf(key: string): string {
  const coded = /^[A-Za-z0-9]{1,10}-(\d+)$/.exec(key);
  return coded?.[1] ?? key;
}

/** A task's public id as people say it: its team's or area's code, then its number (`ENG-142`). */
export function taskCode(task: Task): string {
  const code = task.team?.publicId ?? task.area?.publicId;
  return code ? `${code}-${task.publicId}` : String(task.publicId);
}

/**
 * The `If-Match` that names the version of the task the person saw. The API compares the version
 * alone, which is the task's `updatedAt` in base-36 milliseconds (docs/reliability.md, "Concurrency"),
 * so the tag is made from the task as read, whichever read or save it came from.
 */
function versionTag(task: Pick<Task, 'updatedAt'>): string {
  return `"${Date.parse(task.updatedAt).toString(36)}-web"`;
}

export function taskQuery(key: string) {
  const id = taskIdOf(key);
  return queryOptions({
    queryKey: ['task', id],
    queryFn: ({ signal }) =>
      cairn.getTask({
        params: { path: { id }, query: { expand: [...TASK_EXPAND], includeMarkdown: 'true' } },
        signal,
      }),
  });
}

/** The task's group: its team (teamQuery's key, so the list and the page share it) or its area. */
export function groupQuery(task: Pick<Task, 'teamId' | 'areaId'>) {
  const isTeam = task.teamId !== undefined;
  const id = task.teamId ?? task.areaId ?? '';
  return queryOptions({
    queryKey: isTeam ? ['team', id.toUpperCase()] : ['area', id],
    queryFn: ({ signal }): Promise<Group> =>
      isTeam
        ? cairn.getTeam({ params: { path: { id } }, signal })
        : cairn.getArea({ params: { path: { id } }, signal }),
    staleTime: 60_000,
  });
}

/** A team's open projects, for the task's project choice (a team has tens, not thousands). */
export function teamProjectsQuery(teamId: string) {
  return queryOptions({
    queryKey: ['projects', 'team', teamId],
    queryFn: async ({ signal }) =>
      (
        await cairn.listProjects({
          params: { query: { teamId, expand: ['none'], limit: PAGE_SIZE } },
          signal,
        })
      ).data,
    staleTime: 60_000,
  });
}

// --- Saves ---------------------------------------------------------------------------------------------

/** Saves changes made to `base` (the version the person saw): 412 precondition_failed if it moved on. */
export function saveTask(base: Task, changes: TaskChanges): Promise<Task> {
  return cairn.upsertTask({
    body: { id: base.id, ...changes },
    ifMatch: versionTag(base),
    params: { query: { expand: [...TASK_EXPAND], includeMarkdown: 'true' } },
  });
}

/** The task as it is now (after a 412: the newer version to show beside the person's change). */
export function readTask(id: string): Promise<Task> {
  return cairn.getTask({
    params: { path: { id }, query: { expand: [...TASK_EXPAND], includeMarkdown: 'true' } },
  });
}

export const isConflict = (error: unknown) => isCairnError(error, 'precondition_failed');

export async function deleteTask(task: Task): Promise<void> {
  await cairn.deleteTask({ params: { path: { id: task.id } } });
}

export function restoreTask(task: Task): Promise<Task> {
  return cairn.restoreTask({
    params: { path: { id: task.id }, query: { expand: [...TASK_EXPAND], includeMarkdown: 'true' } },
  });
}

export interface NewTask {
  teamId: string;
  name: string;
  statusId?: string | undefined;
  assignedToId?: string | undefined;
  description?: string | undefined;
}

export function createTask(input: NewTask): Promise<Task> {
  const body = {
    teamId: input.teamId,
    name: input.name,
    ...(input.statusId ? { statusId: input.statusId } : {}),
    ...(input.assignedToId ? { assignedToId: input.assignedToId } : {}),
    ...(input.description ? { description: input.description } : {}),
  };
  return cairn.upsertTask({ body, params: { query: { expand: ['team'] } } });
}

// --- Templates -----------------------------------------------------------------------------------------

/** The task templates the person sees (in their areas), up to 100 (the list is not paged). */
export const taskTemplatesQuery = queryOptions({
  queryKey: ['task-templates'],
  queryFn: async ({ signal }): Promise<TaskTemplate[]> =>
    (await cairn.listTaskTemplates({ params: { query: { limit: 100 } }, signal })).data,
  staleTime: 60_000,
});

/** A task made from a template: in the template's area, with the template's values unless given. */
export function createTaskFromTemplate(templateId: string, name: string | undefined): Promise<Task> {
  return cairn.createTaskFromTemplate({
    params: { path: { id: templateId }, query: { expand: ['area'] } },
    body: name ? { name } : {},
  });
}

// --- Comments ------------------------------------------------------------------------------------------

/** A task's comments (top-level posts), oldest first, with reactions and their authors. */
export function commentsQuery(taskId: string) {
  return queryOptions({
    queryKey: ['posts', 'task', taskId],
    queryFn: async ({ signal }) => {
      const posts: Post[] = [];
      for await (const post of cairn.paginate('listPosts', {
        params: { query: { entityType: 'task', entityId: taskId, expand: ['reactions', 'owner'] } },
        pageSize: PAGE_SIZE,
        signal,
      }))
        posts.push(post);
      return posts;
    },
  });
}

/** The replies to a comment, oldest first. */
export function repliesQuery(postId: string) {
  return queryOptions({
    queryKey: ['posts', 'replies', postId],
    queryFn: async ({ signal }) => {
      const posts: Post[] = [];
      for await (const post of cairn.paginate('listPostReplies', {
        params: { path: { id: postId }, query: { expand: ['reactions', 'owner'] } },
        pageSize: PAGE_SIZE,
        signal,
      }))
        posts.push(post);
      return posts;
    },
  });
}

export function postComment(input: { taskId: string; content: string; parentId?: string }): Promise<Post> {
  return cairn.createPost({
    body: {
      entityType: 'task',
      entityId: input.taskId,
      content: input.content,
      ...(input.parentId ? { parentId: input.parentId } : {}),
    },
  });
}

export async function setReaction(postId: string, reaction: string, on: boolean): Promise<void> {
  if (on) await cairn.addPostReaction({ params: { path: { id: postId } }, body: { reaction } });
  else await cairn.removePostReaction({ params: { path: { id: postId, reaction } } });
}

export async function setResolved(postId: string, resolved: boolean): Promise<void> {
  const init = { params: { path: { id: postId } } };
  if (resolved) await cairn.resolvePost(init);
  else await cairn.unresolvePost(init);
}

// --- History -------------------------------------------------------------------------------------------

/** Feed pages read for a task's history at most (100 events each, of the kinds that touch tasks). */
const HISTORY_PAGES = 20;

export interface TaskHistory {
  events: FeedEvent[];
  /** The feed went on past what was read: older events of this task may be missing. */
  partial: boolean;
}

/**
 * A task's history: the task's own events and the comments on it, from the events feed (kept for
 * the retention period, 7 days by default). The feed has no filter by resource, so the page reads the
 * events of the kinds that touch a task, oldest first, and keeps this task's; it stops after
 * HISTORY_PAGES pages and says so.
 */
export function historyQuery(taskId: string) {
  return queryOptions({
    queryKey: ['events', 'task', taskId],
    queryFn: async ({ signal }): Promise<TaskHistory> => {
      const events: FeedEvent[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const answer = await cairn.listEvents({
          params: {
            query: {
              type: ['task.created', 'task.updated', 'task.deleted', 'task.restored', 'post.created'],
              limit: 100,
              ...(cursor ? { cursor } : {}),
            },
          },
          signal,
        });
        events.push(...answer.data.filter((event) => concernsTask(event, taskId)));
        if (!answer.hasMore) return { events, partial: false };
        cursor = answer.nextCursor;
      }
      return { events, partial: true };
    },
  });
}

function concernsTask(event: FeedEvent, taskId: string): boolean {
  const data = event.data as { id?: string; entityType?: string; entityId?: string };
  if (event.type === 'post.created') return data.entityType === 'task' && data.entityId === taskId;
  return data.id === taskId;
}
