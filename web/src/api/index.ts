// Everything the app asks of Cairn goes through this one module: the @cairn/client instance (cookie mode:
// no token, the browser sends the `cairn_session` cookie), the calls, the TanStack Query options that
// name and cache them, and the reading of failures. Components import from here and never call fetch,
// so a change of the client's call style is an edit of this file alone.
import { type Answer, CairnError, createClient, isCairnError, type Schema } from '@cairn/client';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

const cairn = createClient({ baseUrl: window.location.origin });

export type Me = Answer<'getMe'>;
export type Task = Schema<'Task'>;
export type Team = Schema<'Team'>;
export type TeamLabel = NonNullable<Team['taskLabels']>[number];

/** Tasks read for My work at most: a person's open assignments, newest change first. */
export const MY_WORK_LIMIT = 500;
const PAGE_SIZE = 100;

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
        params: { query: { expand: ['members'] } },
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
  text?: string;
}

/** A team's tasks with the list's filters, a page of 100 at a time (the list loads more as it scrolls). */
export function teamTasksQuery(teamId: string, filters: TeamTaskFilters) {
  return infiniteQueryOptions({
    queryKey: ['tasks', 'team', teamId, filters],
    queryFn: ({ pageParam, signal }) =>
      cairn.searchTasks({
        params: {
          query: {
            teamId,
            ...(filters.statusId ? { statusId: filters.statusId } : {}),
            ...(filters.assigneeId ? { assignedToId: filters.assigneeId } : {}),
            ...(filters.text ? { name: filters.text } : {}),
            expand: ['status', 'assignee'],
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

// --- Failures ---------------------------------------------------------------------------------------

export interface Problem {
  /** The API's problem `detail`, or what went wrong when no answer came. */
  detail: string;
  code: string;
  status: number;
  /** Refused body fields by name (`password`), with the API's message. */
  fields: Record<string, string>;
  requestId: string | undefined;
}

/** What a failure says to a person: the problem+json `detail` first, the field errors by field. */
export function problemOf(error: unknown): Problem {
  if (error instanceof CairnError) {
    const fields: Record<string, string> = {};
    for (const field of error.errors) {
      const name = /^\/body\/([^/]+)/.exec(field.path)?.[1];
      if (name && !(name in fields)) fields[name] = field.message;
    }
    return {
      detail: error.detail ?? noAnswer(error.code) ?? error.title ?? error.message,
      code: error.code,
      status: error.status,
      fields,
      requestId: error.requestId,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { detail, code: 'internal', status: 0, fields: {}, requestId: undefined };
}

function noAnswer(code: string): string | undefined {
  if (code === 'network_error') return 'Cairn cannot be reached. Check the connection and try again.';
  if (code === 'timeout') return 'Cairn took too long to answer. Try again.';
  return undefined;
}

export function isUnauthenticated(error: unknown): boolean {
  return isCairnError(error, 'unauthenticated');
}
