// What a post is on: a task, a project or a document, loaded through its own module's service, so
// that a post is visible exactly when its entity is (invisible, or of another type, is 404).
import type { Context } from '../../context.ts';
import type { DocumentRow } from '../documents/repository.ts';
import * as documents from '../documents/service.ts';
import type { ProjectRow } from '../projects/repository.ts';
import * as projects from '../projects/service.ts';
import type { TaskRow } from '../tasks/repository.ts';
import * as tasks from '../tasks/service.ts';
import type { EntityType } from './schema.ts';

export interface Entity {
  type: EntityType;
  id: string;
  title: string;
  deleted: boolean;
}

const ofTask = (t: TaskRow): Entity => ({
  type: 'task',
  id: t.id,
  title: t.name,
  deleted: t.deleted_at !== null,
});
const ofProject = (p: ProjectRow): Entity => ({ type: 'project', id: p.id, title: p.name, deleted: false });
const ofDocument = (d: DocumentRow): Entity => ({
  type: 'document',
  id: d.id,
  title: d.name,
  deleted: d.deleted_at !== null,
});

/** The entity the caller sees, by UUID or publicId; 404 (naming the type) otherwise. */
export async function loadEntity(ctx: Context, type: EntityType, ref: string): Promise<Entity> {
  switch (type) {
    case 'task':
      return ofTask(await tasks.loadVisibleTask(ctx, ref));
    case 'project':
      return ofProject((await projects.loadVisibleProject(ctx, ref)).row);
    case 'document':
      return ofDocument(await documents.loadVisibleDocument(ctx, ref));
  }
}

/** The entities of these (type, UUID) pairs the caller sees, by entityKey: one query per type. */
export async function loadVisibleEntities(
  ctx: Context,
  refs: { type: EntityType; id: string }[],
): Promise<Map<string, Entity>> {
  const idsOf = (type: EntityType) => [...new Set(refs.filter((r) => r.type === type).map((r) => r.id))];
  const [taskIds, projectIds, documentIds] = [idsOf('task'), idsOf('project'), idsOf('document')];
  const none = Promise.resolve([]);
  const [t, p, d] = await Promise.all([
    taskIds.length ? tasks.loadVisibleTasks(ctx, taskIds) : none,
    projectIds.length ? projects.loadVisibleProjects(ctx, projectIds) : none,
    documentIds.length ? documents.loadVisibleDocuments(ctx, documentIds) : none,
  ]);
  const found = [...t.map(ofTask), ...p.map((x) => ofProject(x.row)), ...d.map(ofDocument)];
  return new Map(found.map((e) => [entityKey(e), e]));
}

export function entityKey(entity: Pick<Entity, 'type' | 'id'>): string {
  return `${entity.type}:${entity.id}`;
}

/** Where the API serves an entity (entityUrl): GET of it, under CAIRN_PUBLIC_URL. */
export function entityPath(entity: Pick<Entity, 'type' | 'id'>): string {
  return `/v1/${entity.type}s/${entity.id}`;
}
