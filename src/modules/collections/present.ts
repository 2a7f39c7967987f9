import type { CollectionRow } from './repository.ts';
import type { Collection } from './schema.ts';

export function presentCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    name: row.name,
    createdById: row.created_by_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
