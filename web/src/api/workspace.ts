// Settings for owners: the workspace's people (directory, roles), invitations, and its teams and
// areas (name, statuses, labels, members). The API refuses these to others anyway; the screens hide them.
import type { Answer, Item, Schema } from '@cairn/client';
import { queryOptions } from '@tanstack/react-query';
import { cairn } from './client.ts';

export type User = Item<'listUsers'>;
export type Role = User['role'];
export type Invitation = Item<'listInvitations'>;
export type CreatedInvitation = Answer<'createInvitation'>;
export type Group = Schema<'Team'>;
export type GroupKind = 'team' | 'area';
export type GroupChange = NonNullable<Parameters<typeof cairn.upsertTeam>[0]>['body'];

export const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'guest'];

// --- People -----------------------------------------------------------------------------------------

export const usersQuery = queryOptions({
  queryKey: ['users'],
  queryFn: async ({ signal }) => {
    const users: User[] = [];
    for await (const user of cairn.paginate('listUsers', { signal })) users.push(user);
    return users;
  },
});

export async function changeRole(input: { id: string; role: Role }) {
  return cairn.upsertUser({ body: input });
}

// --- Invitations ------------------------------------------------------------------------------------

/** The invitations still open (pending), newest first. */
export const openInvitationsQuery = queryOptions({
  queryKey: ['invitations', 'pending'],
  queryFn: async ({ signal }) => {
    const found: Invitation[] = [];
    for await (const invitation of cairn.paginate('listInvitations', {
      params: { query: { state: 'pending' } },
      signal,
    }))
      found.push(invitation);
    return found;
  },
});

/** Invites (or invites again: a new invitation replaces an open one for the same email, new link). */
export async function invite(input: { email: string; role: Role }): Promise<CreatedInvitation> {
  return cairn.createInvitation({ body: input });
}

export async function revokeInvitation(id: string): Promise<void> {
  await cairn.revokeInvitation({ params: { path: { id } } });
}

// --- Teams and areas --------------------------------------------------------------------------------

/** Every team the person can see, archived ones too, with members, statuses and labels. */
export const allTeamsQuery = queryOptions({
  queryKey: ['teams', 'settings'],
  queryFn: async ({ signal }) => {
    const teams: Group[] = [];
    for await (const team of cairn.paginate('searchTeams', {
      params: { query: { includeArchived: 'true' } },
      signal,
    }))
      teams.push(team);
    return teams;
  },
});

/** One team or area with everything the editor shows, by code (`ENG`) or id. */
export function groupQuery(kind: GroupKind, key: string) {
  return queryOptions({
    queryKey: [kind, key.toUpperCase(), 'settings'],
    queryFn: async ({ signal }): Promise<Group> => {
      const expand: ('members' | 'taskStatuses' | 'taskLabels')[] = ['members', 'taskStatuses', 'taskLabels'];
      const init = { params: { path: { id: key }, query: { expand } }, signal };
      return kind === 'team' ? cairn.getTeam(init) : cairn.getArea(init);
    },
  });
}

/** Creates a team or an area (no id), or changes one (with its id); lists given replace the old ones. */
export async function saveGroup(kind: GroupKind, body: GroupChange): Promise<Group> {
  return kind === 'team' ? cairn.upsertTeam({ body }) : cairn.upsertArea({ body });
}
