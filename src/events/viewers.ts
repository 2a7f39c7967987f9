// Who the readers of the live stream are right now: each one's workspace role and the groups it sees,
// read for every reader of a workspace at once (two statements, whatever their number) each time a
// batch of events is about to be sent. So a stream follows a change of role or of team membership
// from the next batch on, without a query per stream, and without waiting for an event that says so
// (a role changes without one). The rule itself is the groups policy's (canSeeGroup), applied here as
// groups/lookup.ts applies it to a request's caller.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import type { DB, MemberRole, Privacy, WorkspaceRole } from '../db/types.ts';
import { canSeeGroup } from '../modules/groups/policy.ts';

/** A reader as the policies take it: who, with which role, seeing which groups. */
export interface Viewer {
  id: string;
  role: WorkspaceRole;
  groups: { all: boolean; visible: Set<string> };
}

interface ViewerRow {
  user_id: string;
  user_role: WorkspaceRole;
  group_id: string | null;
  member_role: MemberRole | null;
}

/** Ids as one argument: a JSON array for SQLite's json_each, an array for PostgreSQL's `= any`. */
function idList(dialect: Dialect, ids: string[]): string | string[] {
  return dialect === 'sqlite' ? JSON.stringify(ids) : ids;
}

/**
 * The viewers among `userIds` (users of the workspace; a missing one is left out). One statement for
 * the workspace's groups, one for the users' roles and memberships (the index group_members_by_user).
 */
export async function loadViewers(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  userIds: string[],
): Promise<Map<string, Viewer>> {
  const viewers = new Map<string, Viewer>();
  if (userIds.length === 0) return viewers;
  const ids = idList(dialect, userIds);
  const members = sql`left join group_members m on m.workspace_id = u.workspace_id and m.user_id = u.id`;
  const columns = sql`u.id as user_id, u.role as user_role, m.group_id, m.role as member_role`;
  const query =
    dialect === 'sqlite'
      ? sql<ViewerRow>`select ${columns} from json_each(${ids}) j
          join users u on u.workspace_id = ${workspaceId} and u.id = j.value ${members}`
      : sql<ViewerRow>`select ${columns} from users u ${members}
          where u.workspace_id = ${workspaceId} and u.id = any(${ids})`;
  const [groups, rows] = await Promise.all([
    db
      .selectFrom('groups')
      .select(['id', 'privacy'])
      .where('workspace_id', '=', workspaceId)
      .execute() as Promise<{ id: string; privacy: Privacy }[]>,
    query.execute(db).then((r) => r.rows),
  ]);
  const memberships = new Map<string, Map<string, MemberRole>>();
  const roles = new Map<string, WorkspaceRole>();
  for (const row of rows) {
    roles.set(row.user_id, row.user_role);
    const of = memberships.get(row.user_id) ?? new Map<string, MemberRole>();
    memberships.set(row.user_id, of);
    if (row.group_id !== null && row.member_role !== null) of.set(row.group_id, row.member_role);
  }
  for (const [id, role] of roles) {
    const of = memberships.get(id)!;
    const visible = new Set<string>();
    for (const g of groups) {
      if (canSeeGroup({ role }, { privacy: g.privacy }, of.get(g.id) ?? null)) visible.add(g.id);
    }
    viewers.set(id, { id, role, groups: { all: visible.size === groups.length, visible } });
  }
  return viewers;
}
