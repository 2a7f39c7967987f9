// Everything the app asks of Cairn goes through web/src/api: this module (the person, teams, tasks and the
// session), one module per feature beside it (each importing the shared instance from ./client.ts), and
// ./problems.ts for reading failures. Components import from here and never call fetch.
import { type Answer, isCairnError, type Schema } from '@cairn/client';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { cairn, PAGE_SIZE } from './client.ts';

export { isUnauthenticated, problemOf } from './problems.ts';

export type Me = Answer<'getMe'>;
export type Task = Schema<'Task'>;
export type Team = Schema<'Team'>;
export type TeamLabel = NonNullable<Team['taskLabels']>[number];

/** Tasks read for My work at most: a person's open assignments, newest change first. */
export const MY_WORK_LIMIT = 500;

// --- Reads -------------------------------------------------------------------------------------------

/** The signed-in person and their workspace, or null when no session is open. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async (): Promise<Me | null> => {
    try {
      return await cairn.getMe();
    } catch (error) {
      if (isCairnError(error, 'unauthenticated')) return null;
      throw error;
    }
  },
  staleTime: 5 * 60_000,
});

/** The teams the person is a member of (the sidebar's), in the API's order. */
export function myTeamsQuery(userId: string) {
  return queryOptions({
    queryKey: ['teams', 'mine', userId],
    queryFn: async ({ signal }) => {
      const teams: Team[] = [];
      for await (const team of cairn.paginate('searchTeams', {
        params: { query: { expand: ['members', 'taskStatuses'] } },
        signal,
      })) {
        if (team.members?.some((member) => member.id === userId)) teams.push(team);
      }
      return teams;
    },
    staleTime: 60_000,
  });
}

/** One team with its members, statuses and labels, by publicId (`ENG`) or id. */
export function teamQuery(key: string) {
  return queryOptions({
    queryKey: ['team', key.toUpperCase()],
    queryFn: ({ signal }) => cairn.getTeam({ params: { path: { id: key } }, signal }),
    staleTime: 60_000,
  });
}

/** The tasks assigned to the person, across teams (My work groups them by due date). */
export function myTasksQuery(userId: string) {
  return queryOptions({
    queryKey: ['tasks', 'mine', userId],
    queryFn: async ({ signal }) => {
      const tasks: Task[] = [];
      for await (const task of cairn.paginate('searchTasks', {
        params: { query: { assignedToId: userId, expand: ['status', 'team', 'area'] } },
        pageSize: PAGE_SIZE,
        signal,
      })) {
        tasks.push(task);
        if (tasks.length >= MY_WORK_LIMIT) break;
      }
      return tasks;
    },
  });
}

export interface TeamTaskFilters {
  statusId?: string;
  assigneeId?: string;
  labelId?: string;
  projectId?: string;
  text?: string;
  includeDeleted?: boolean;
}

/** The search's query for a team's tasks with these filters (the list's pages, the board's set). */
export function teamTaskSearch(teamId: string, filters: TeamTaskFilters) {
  return {
    teamId,
    ...(filters.statusId ? { statusId: filters.statusId } : {}),
    ...(filters.assigneeId ? { assignedToId: filters.assigneeId } : {}),
    ...(filters.labelId ? { labelId: filters.labelId } : {}),
    ...(filters.projectId ? { projectId: filters.projectId } : {}),
    ...(filters.text ? { name: filters.text } : {}),
    ...(filters.includeDeleted ? { includeDeleted: 'true' as const } : {}),
    expand: ['status' as const, 'assignee' as const],
  };
}

/** A team's tasks with the list's filters, a page of 100 at a time (the list loads more as it scrolls). */
export function teamTasksQuery(teamId: string, filters: TeamTaskFilters) {
  return infiniteQueryOptions({
    queryKey: ['tasks', 'team', teamId, filters],
    queryFn: ({ pageParam, signal }) =>
      cairn.searchTasks({
        params: {
          query: {
            ...teamTaskSearch(teamId, filters),
            limit: PAGE_SIZE,
            ...(pageParam ? { cursor: pageParam } : {}),
          },
        },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
}

// --- Session and password links -------------------------------------------------------------------

export async function signIn(input: { email: string; password: string }): Promise<void> {
  await cairn.signIn({ body: input });
}

export async function signOut(): Promise<void> {
  await cairn.signOut();
}

export async function acceptInvitation(input: { token: string; name: string; password: string }) {
  await cairn.acceptInvitation({ body: input });
}

export async function resetPassword(input: { token: string; password: string }): Promise<void> {
  await cairn.resetPassword({ body: input });
}
