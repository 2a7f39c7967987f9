// Rows to API objects. Expansions are loaded for all groups of a response at once (service.loadExpansions)
// and only the asked-for ones appear.
import type { GroupRow, LabelRow, MemberWithUser, StatusRow } from './repository.ts';
import type { Area, GroupExpansion, Team } from './schema.ts';

export interface GroupExpansions {
  members?: Map<string, MemberWithUser[]>;
  taskStatuses?: Map<string, StatusRow[]>;
  taskLabels?: Map<string, LabelRow[]>;
}

export function presentGroup(
  row: GroupRow,
  loaded: GroupExpansions,
  expand: Set<GroupExpansion>,
): Team | Area {
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
