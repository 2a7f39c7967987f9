import type { WorkspaceRef } from '../../context.ts';
import type { UserRow } from './repository.ts';
import type { Me, User } from './schema.ts';

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    lastAccessedAt: row.last_accessed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function presentMe(row: UserRow, workspace: WorkspaceRef): Me {
  return { ...presentUser(row), workspace: { id: workspace.id, name: workspace.name } };
}
