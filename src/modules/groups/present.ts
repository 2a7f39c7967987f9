// Rows to API objects. Expansions are loaded for all groups of a response at once (one query per
// expansion) and only the asked-for ones appear.
import type { Context } from '../../context.ts';
import { groupBy } from '../../db/rows.ts';
import type { GroupRow, LabelRow, MemberWithUser, StatusRow } from './repository.ts';
import * as repo from './repository.ts';
import type { Area, GroupExpansion, Team } from './schema.ts';

interface GroupExpansions {
  members?: Map<string, MemberWithUser[]>;
  taskStatuses?: Map<string, StatusRow[]>;
  taskLabels?: Map<string, LabelRow[]>;
}

async function loadExpansions(
  ctx: Pick<Context, 'db' | 'workspace'>,
  rows: GroupRow[],
  expand: Set<GroupExpansion>,
): Promise<GroupExpansions> {
  const ids = rows.map((r) => r.id);
  const ws = ctx.workspace.id;
  const [members, taskStatuses, taskLabels] = await Promise.all([
    expand.has('members') ? repo.membersOf(ctx.db, ws, ids) : undefined,
    expand.has('taskStatuses') ? repo.statusesOf(ctx.db, ws, ids) : undefined,
    expand.has('taskLabels') ? repo.labelsOf(ctx.db, ws, ids) : undefined,
  ]);
  return {
    members: members && groupBy(members, (m) => m.group_id),
    taskStatuses: taskStatuses && groupBy(taskStatuses, (s) => s.group_id),
    taskLabels: taskLabels && groupBy(taskLabels, (l) => l.group_id),
  };
}

/** Teams or areas with the asked-for expansions. */
export async function presentGroups(
  ctx: Pick<Context, 'db' | 'workspace'>,
  rows: GroupRow[],
  expand: Set<GroupExpansion>,
): Promise<(Team | Area)[]> {
  const loaded = await loadExpansions(ctx, rows, expand);
  return rows.map((row) => presentGroup(row, loaded, expand));
}

function presentGroup(row: GroupRow, loaded: GroupExpansions, expand: Set<GroupExpansion>): Team | Area {
  const out: Team & { description?: string | null } = {
    id: row.id,
    name: row.name,
    publicId: row.public_id,
    icon: row.icon,
    color: row.color,
    privacy: row.privacy,
    archivedAt: row.archived_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.kind === 'area') out.description = row.description;
  if (expand.has('members')) {
    out.members = (loaded.members?.get(row.id) ?? []).map((m) => ({
      id: m.user_id,
      role: m.role,
      username: m.name,
      email: m.email,
      lastAccessedAt: m.last_accessed_at,
      createdAt: m.created_at,
    }));
  }
  if (expand.has('taskStatuses')) {
    out.taskStatuses = (loaded.taskStatuses?.get(row.id) ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      stage: s.stage,
      color: s.color,
    }));
  }
  if (expand.has('taskLabels')) {
    out.taskLabels = (loaded.taskLabels?.get(row.id) ?? []).map((l) => ({
      id: l.id,
      color: l.color,
      name: l.name,
    }));
  }
  return out;
}
