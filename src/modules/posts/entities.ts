// What a post is on: a task, a project or a document, loaded through its own module's service, so
// that a post is visible exactly when its entity is (invisible, or of another type, is 404).
import type { Context } from '../../context.ts';
import * as documents from '../documents/service.ts';
import * as projects from '../projects/service.ts';
import * as tasks from '../tasks/service.ts';
import type { EntityType } from './schema.ts';

export interface Entity {
  type: EntityType;
  id: string;
  title: string;
  deleted: boolean;
}

/** The entity the caller sees, by UUID or publicId; 404 (naming the type) otherwise. */
export async function loadEntity(ctx: Context, type: EntityType, ref: string): Promise<Entity> {
  switch (type) {
    case 'task': {
      const t = await tasks.loadVisibleTask(ctx, ref);
      return { type, id: t.id, title: t.name, deleted: t.deleted_at !== null };
    }
    case 'project': {
      const { row } = await projects.loadVisibleProject(ctx, ref);
      return { type, id: row.id, title: row.name, deleted: false };
    }
    case 'document': {
      const d = await documents.loadVisibleDocument(ctx, ref);
      return { type, id: d.id, title: d.name, deleted: d.deleted_at !== null };
    }
  }
}

/** Where the API serves an entity (entityUrl): GET of it, under CAIRN_PUBLIC_URL. */
export function entityPath(entity: Pick<Entity, 'type' | 'id'>): string {
  return `/v1/${entity.type}s/${entity.id}`;
}
