import type { ProjectStatusRow } from './repository.ts';
import type { ProjectStatus } from './schema.ts';

export function presentProjectStatus(row: ProjectStatusRow): ProjectStatus {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    icon: row.icon,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
