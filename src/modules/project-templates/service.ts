// Project templates: create-or-update, list, soft delete, and projects made from them (with the
// tasks of the task templates scoped to them), in their owning area.
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import { firstRows, groupRowRule, NOTHING } from '../../db/listing.ts';
import { setDeleted } from '../../db/state.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { toTimestampOrNull } from '../../text/dates.ts';
import * as groups from '../groups/lookup.ts';
import * as projects from '../projects/service.ts';
import { canChangeTemplates, canSeeTemplate } from '../task-templates/policy.ts';
import * as taskTemplates from '../task-templates/service.ts';
import { loadVisibleProjectTemplate } from './lookup.ts';
import type { ProjectTemplateRow } from './repository.ts';
import * as repo from './repository.ts';
import type { CreateProjectBody, ProjectTemplateUpsertBody } from './schema.ts';
import { checkTemplate, projectDates, USE_FIELDS } from './values.ts';

export interface LoadedTemplate {
  row: ProjectTemplateRow;
  areaIds: string[];
}

const DELETED = () => new AppError('deleted', 'This template is deleted');

export async function loadTemplate(ctx: Context, ref: string): Promise<LoadedTemplate> {
  const row = await loadVisibleProjectTemplate(ctx, ref);
  return { row, areaIds: (await areasOf(ctx, [row.id])).get(row.id) ?? [] };
}

/** The templates of these ids (UUIDs) that ctx can see, deleted or not, with their areas (event data). */
export async function loadVisibleProjectTemplates(ctx: Context, ids: string[]): Promise<LoadedTemplate[]> {
  const [rows, visibility] = await Promise.all([
    repo.findTemplatesByIds(ctx.db, ctx.workspace.id, ids),
    groups.groupVisibility(ctx),
  ]);
  const visible = rows.filter((row) => canSeeTemplate(row.owned_by_area_id, visibility));
  const areas = await areasOf(
    ctx,
    visible.map((row) => row.id),
  );
  return visible.map((row) => ({ row, areaIds: areas.get(row.id) ?? [] }));
}

function areasOf(ctx: Context, templateIds: string[]): Promise<Map<string, string[]>> {
  return repo.areasOf(ctx.db, ctx.workspace.id, templateIds);
}

/** POST /v1/project-templates: create, or update when `id` is given. */
export async function upsertProjectTemplate(
  ctx: Context,
  body: ProjectTemplateUpsertBody,
): Promise<{ template: LoadedTemplate; created: boolean }> {
  if (!canChangeTemplates(ctx.actor)) throw forbidden('Guests cannot change templates');
  const at = now();
  if (body.id !== undefined) {
    const current = await loadVisibleProjectTemplate(ctx, body.id, true);
    if (current.deleted_at !== null) throw DELETED();
    const currentAreas = (await areasOf(ctx, [current.id])).get(current.id) ?? [];
    const { row, areaIds } = await checkTemplate(ctx, body, current, currentAreas);
    const changes = { ...row, updated_at: changedAt(current.updated_at, at) };
    if (!(await repo.updateTemplate(ctx.db, ctx.workspace.id, current.id, changes))) throw DELETED();
    if (areaIds !== currentAreas) await repo.replaceAreas(ctx.db, ctx.workspace.id, current.id, areaIds);
    return { template: { row: { ...current, ...changes }, areaIds }, created: false };
  }
  const { row, areaIds } = await checkTemplate(ctx, body, undefined, []);
  const inserted = await repo.insertTemplate(ctx.db, {
    ...row,
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    public_id: String(await nextValues(ctx.db, ctx.workspace.id, 'project_template')),
    created_by_id: ctx.actor.id,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    deleted_by_id: null,
  });
  await repo.replaceAreas(ctx.db, ctx.workspace.id, inserted.id, areaIds);
  await recordEvent(ctx, 'project_template.created', inserted.id, at);
  return { template: { row: inserted, areaIds }, created: true };
}

/** DELETE /v1/project-templates/{id}: soft (deletedById); deleting it again changes nothing. */
export async function deleteProjectTemplate(ctx: Context, ref: string): Promise<void> {
  if (!canChangeTemplates(ctx.actor)) throw forbidden('Guests cannot change templates');
  const current = await loadVisibleProjectTemplate(ctx, ref, true);
  if (current.deleted_at !== null) return;
  const at = changedAt(current.updated_at);
  await setDeleted(ctx.db, 'project_templates', ctx.workspace.id, current.id, true, at, ctx.actor.id);
}

export interface ProjectTemplateFilter {
  areaId?: string;
  ownedByAreaId?: string;
  includeDeleted: boolean;
  limit: number;
}

/** GET /v1/project-templates: templates of areas the caller sees, oldest first. */
export async function listProjectTemplates(
  ctx: Context,
  q: ProjectTemplateFilter,
): Promise<LoadedTemplate[]> {
  const visibility = await groups.groupVisibility(ctx);
  // Templates follow their owning area's visibility.
  const where = [...groupRowRule(visibility, repo.ownedByAreas).where];
  // An accessible area: one the caller cannot see offers nothing.
  const area = q.areaId && visibility.visible.has(q.areaId) ? q.areaId : undefined;
  if (q.areaId && !area) where.push(NOTHING);
  const filter = {
    offeredIn: area,
    ownedByAreaId: q.ownedByAreaId,
    live: !q.includeDeleted,
  };
  const rows = await firstRows(
    ctx,
    repo.TEMPLATE_LIST,
    [...where, ...repo.templateConditions(filter)],
    q.limit,
  );
  const areas = await areasOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, areaIds: areas.get(row.id) ?? [] }));
}

/** The dates a create-project body gives (null: none), as timestamps; absent ones are the template's. */
function givenDates(body: CreateProjectBody) {
  return {
    startDate: body.startDate !== undefined ? toTimestampOrNull(body.startDate, 'startDate') : undefined,
    dueDate: body.dueDate !== undefined ? toTimestampOrNull(body.dueDate, 'dueDate') : undefined,
  };
}

/**
 * POST /v1/project-templates/{id}/create-project: in one transaction, a project in the template's
 * owning area (the area variant) and a task for each task template scoped to the template.
 */
export async function createProjectFromTemplate(
  ctx: Context,
  ref: string,
  body: CreateProjectBody,
): Promise<taskTemplates.MadeTasks<projects.LoadedProject>> {
  const template = await loadVisibleProjectTemplate(ctx, ref);
  if (template.deleted_at !== null) throw DELETED();
  await taskTemplates.checkAreaOpen(ctx, template.owned_by_area_id);
  const at = now();
  const project = await projects.createInArea(
    ctx,
    template.owned_by_area_id,
    {
      name: body.name?.trim() ?? template.name,
      icon: template.icon,
      color: template.color,
      ...projectDates(template, givenDates(body), at, USE_FIELDS),
      ownerId: body.ownerId !== undefined ? body.ownerId : (template.owner_id ?? ctx.actor.id),
      description: { html: template.description_html, markdown: template.description_markdown },
    },
    at,
  );
  const { skipped } = await taskTemplates.createTasksForProject(ctx, template.id, project.row, at);
  return { made: project, skipped };
}
