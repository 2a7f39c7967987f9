// Task templates: create-or-update, list, soft delete, and tasks made from them (in their area).
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import { firstRows, groupRowRule } from '../../db/listing.ts';
import type { TaskStage } from '../../db/types.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../http/errors.ts';
import { textRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import { toTimestampOrNull } from '../../text/dates.ts';
import { EMPTY, fromInput } from '../../text/description.ts';
import { type Anchors, resolveDate } from '../../text/relative-dates.ts';
import * as groups from '../groups/lookup.ts';
import * as projects from '../projects/service.ts';
import type { TaskRow } from '../tasks/repository.ts';
import * as tasks from '../tasks/service.ts';
import * as users from '../users/service.ts';
import { canChangeTemplates, canSeeTemplate } from './policy.ts';
import type { TaskTemplateRow } from './repository.ts';
import * as repo from './repository.ts';
import type { CreateTaskBody } from './schema.ts';
import { checkTemplate, relativeOf } from './values.ts';

/** A template the caller sees (its area is visible), deleted or not; anything else is 404. */
export async function loadVisibleTaskTemplate(
  ctx: Context,
  ref: string,
  forChange = false,
): Promise<TaskTemplateRow> {
  const [row, visibility] = await Promise.all([
    repo.findTemplate(ctx.db, ctx.workspace.id, textRef(ref), forChange && ctx.dialect === 'postgres'),
    groups.groupVisibility(ctx),
  ]);
  if (!row || !canSeeTemplate(row.group_id, visibility)) throw notFound('Task template');
  if (forChange) checkVersion(ctx, 'task template', row.updated_at);
  return row;
}

/** The templates of these ids (UUIDs) that ctx can see, deleted or not, in one query (event data). */
export async function loadVisibleTaskTemplates(ctx: Context, ids: string[]): Promise<TaskTemplateRow[]> {
  const [rows, visibility] = await Promise.all([
    repo.findTemplatesByIds(ctx.db, ctx.workspace.id, ids),
    groups.groupVisibility(ctx),
  ]);
  return rows.filter((row) => canSeeTemplate(row.group_id, visibility));
}

export interface SavedTemplate {
  row: TaskTemplateRow;
  created: boolean;
}

const DELETED = () => new AppError('deleted', 'This template is deleted');

/** POST /v1/task-templates: create, or update when `id` is given. */
export async function upsertTaskTemplate(
  ctx: Context,
  body: Parameters<typeof checkTemplate>[1],
): Promise<SavedTemplate> {
  if (!canChangeTemplates(ctx.actor)) throw forbidden('Guests cannot change templates');
  const at = now();
  if (body.id !== undefined) {
    const current = await loadVisibleTaskTemplate(ctx, body.id, true);
    if (current.deleted_at !== null) throw DELETED();
    const { row, labelIds } = await checkTemplate(ctx, body, current);
    const changes = { ...row, updated_at: changedAt(current.updated_at, at) };
    if (!(await repo.updateTemplate(ctx.db, ctx.workspace.id, current.id, changes))) throw DELETED();
    if (labelIds !== undefined) await repo.replaceLabels(ctx.db, ctx.workspace.id, current.id, labelIds);
    return { row: { ...current, ...changes }, created: false };
  }
  const { row, labelIds } = await checkTemplate(ctx, body, undefined);
  const inserted = await repo.insertTemplate(ctx.db, {
    ...row,
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    public_id: String(await nextValues(ctx.db, ctx.workspace.id, 'task_template')),
    created_by_id: ctx.actor.id,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  await repo.replaceLabels(ctx.db, ctx.workspace.id, inserted.id, labelIds ?? []);
  await recordEvent(ctx, 'task_template.created', inserted.id, at);
  return { row: inserted, created: true };
}

/** DELETE /v1/task-templates/{id}: soft; deleting it again changes nothing. */
export async function deleteTaskTemplate(ctx: Context, ref: string): Promise<void> {
  if (!canChangeTemplates(ctx.actor)) throw forbidden('Guests cannot change templates');
  const current = await loadVisibleTaskTemplate(ctx, ref, true);
  if (current.deleted_at !== null) return;
  const at = changedAt(current.updated_at);
  await repo.updateTemplate(ctx.db, ctx.workspace.id, current.id, { deleted_at: at, updated_at: at });
}

/** GET /v1/task-templates: the visible templates, oldest first, filtered. */
export interface TaskTemplateFilter {
  areaId?: string;
  scopeId?: string;
  projectId?: string;
  includeDeleted: boolean;
  limit: number;
}

export async function listTaskTemplates(ctx: Context, q: TaskTemplateFilter): Promise<TaskTemplateRow[]> {
  const { where } = groupRowRule(await groups.groupVisibility(ctx), repo.inAreas);
  const filter = {
    areaId: q.areaId,
    scope: q.scopeId ? { id: q.scopeId } : undefined,
    projectId: q.projectId,
    live: !q.includeDeleted,
  };
  return firstRows(ctx, repo.TEMPLATE_LIST, [...where, ...repo.templateConditions(filter)], q.limit);
}

export function labelIdsOf(ctx: Context, templateIds: string[]): Promise<Map<string, string[]>> {
  return repo.labelIdsOf(ctx.db, ctx.workspace.id, templateIds);
}

/** An archived area takes no new work: making something from its templates is 409. */
export async function checkAreaOpen(ctx: Context, areaId: string): Promise<void> {
  const [area] = await groups.groupsByIds(ctx, [areaId]);
  if (area?.archived_at) throw conflict(`The template's area, "${area.name}", is archived`);
}

interface Overrides {
  name?: string;
  projectId?: string | null;
  assignedToId?: string | null;
  dueDate?: string | null;
  statusId?: string;
  description?: ReturnType<typeof fromInput>;
  /**
   * The request field a relative due date outside the years 1 to 9999 is named by: the one that
   * would fix it (the body's dueDate, else what set the date it moves from); dueDate when absent.
   */
  dateField?: string;
}

/** Checks and prepares the task of one template (overrides apply to it alone). */
async function prepare(
  ctx: Context,
  t: TaskTemplateRow,
  labelIds: string[],
  anchors: (projectId: string | null) => Promise<Anchors>,
  o: Overrides,
  at: string,
) {
  const projectId = o.projectId !== undefined ? o.projectId : t.project_id;
  const relative = relativeOf(t);
  const dueDate =
    o.dueDate !== undefined
      ? o.dueDate
      : resolveDate(relative, t.due_date, relative ? await anchors(projectId) : {}, o.dateField ?? 'dueDate');
  return tasks.prepareAreaCreate(
    ctx,
    {
      areaId: t.group_id,
      name: o.name ?? t.name,
      description: o.description ?? { html: t.description_html, markdown: t.description_markdown },
      dueDate,
      priority: Boolean(t.priority),
      visibility: t.visibility,
      statusId: o.statusId ?? t.status_id,
      stage: t.status_stage as TaskStage | null,
      assignedToId: o.assignedToId !== undefined ? o.assignedToId : t.assigned_to_id,
      projectId,
      labelIds,
    },
    at,
  );
}

/** Child templates (parentTaskTemplateId) of these, live, in creation order. */
async function childrenOf(ctx: Context, parentIds: string[]): Promise<TaskTemplateRow[]> {
  if (parentIds.length === 0) return [];
  const where = repo.templateConditions({ parentIds, live: true });
  return firstRows(ctx, repo.TEMPLATE_LIST, where, 1000);
}

/** Tasks of templates, written together; the first is the answer's. */
async function makeTasks(
  ctx: Context,
  templates: TaskTemplateRow[],
  anchors: (projectId: string | null) => Promise<Anchors>,
  overrides: (t: TaskTemplateRow) => Overrides,
  at: string,
): Promise<TaskRow[]> {
  const labels = await labelIdsOf(
    ctx,
    templates.map((t) => t.id),
  );
  const prepared = [];
  for (const t of templates)
    prepared.push(await prepare(ctx, t, labels.get(t.id) ?? [], anchors, overrides(t), at));
  return tasks.insertCreates(ctx, prepared);
}

/** What a create-task or create-project made: its tasks, and the templates it skipped. */
export interface MadeTasks<T> {
  made: T;
  /** Child and scoped templates skipped because their area is archived (docs/templates.md). */
  skipped: string[];
}

/**
 * Which of these templates (children, or those scoped to a project template) the caller may make a
 * task from: nothing is written where the caller could not make a task. One in an area hidden from
 * the caller is not theirs to know of: left out, and not reported (an id would tell it exists). One
 * in an archived area is skipped and its id reported.
 */
async function makeable(
  ctx: Context,
  templates: TaskTemplateRow[],
): Promise<{ usable: TaskTemplateRow[]; skipped: string[] }> {
  const visibility = await groups.groupVisibility(ctx);
  const seen = templates.filter((t) => canSeeTemplate(t.group_id, visibility));
  const archived = new Set(
    (
      await groups.groupsByIds(
        ctx,
        seen.map((t) => t.group_id),
      )
    )
      .filter((g) => g.archived_at !== null)
      .map((g) => g.id),
  );
  return {
    usable: seen.filter((t) => !archived.has(t.group_id)),
    skipped: seen.filter((t) => archived.has(t.group_id)).map((t) => t.id),
  };
}

/**
 * The projects of these templates that the caller sees: a template's project (a child's too) is used
 * only while the caller sees it, and counts as none otherwise; one given in a body must be seen.
 */
async function seenProjectOf(ctx: Context, templates: TaskTemplateRow[]) {
  const ids = templates.flatMap((t) => (t.project_id ? [t.project_id] : []));
  const seen = await projects.visibleProjects(ctx, ids);
  return (t: TaskTemplateRow) => (t.project_id && seen.has(t.project_id) ? t.project_id : null);
}

/** The overrides of a create-task body, checked. */
async function overridesOf(ctx: Context, template: TaskTemplateRow, body: CreateTaskBody) {
  const o: Overrides = {};
  if (body.name !== undefined) o.name = body.name.trim();
  if (body.projectId !== undefined) o.projectId = body.projectId;
  if (body.assignedToId !== undefined) {
    if (body.assignedToId && !(await users.findInDirectory(ctx, body.assignedToId)))
      throw invalid('assignedToId', 'no user with this id in the workspace');
    o.assignedToId = body.assignedToId;
  }
  if (body.dueDate !== undefined) o.dueDate = toTimestampOrNull(body.dueDate, 'dueDate');
  if (body.statusId !== undefined) {
    const statuses = await groups.statusesOfGroup(ctx, template.group_id);
    if (!statuses.some((s) => s.id === body.statusId))
      throw invalid('statusId', "not a status of the template's area");
    o.statusId = body.statusId;
  }
  if (body.description !== undefined)
    o.description = body.description === null ? EMPTY : fromInput(body.description);
  return o;
}

/** A project's dates as the anchors of relative dates, read once per project. */
function projectAnchors(ctx: Context, at: string) {
  const read = new Map<string | null, Promise<Anchors>>();
  return (projectId: string | null): Promise<Anchors> => {
    if (!read.has(projectId))
      read.set(
        projectId,
        (projectId ? projects.visibleProjects(ctx, [projectId]) : Promise.resolve(new Map())).then((seen) => {
          const project = projectId ? seen.get(projectId) : undefined;
          return {
            task_created: at,
            project_created: project?.created_at ?? null,
            project_start: project?.start_date ?? null,
            project_due: project?.due_date ?? null,
          };
        }),
      );
    return read.get(projectId)!;
  };
}

/**
 * POST /v1/task-templates/{id}/create-task: a task in the template's area, taking the template's
 * values where the body gives none, and one more for each live child template the caller may make.
 */
export async function createTaskFromTemplate(
  ctx: Context,
  ref: string,
  body: CreateTaskBody,
): Promise<MadeTasks<TaskRow>> {
  const template = await loadVisibleTaskTemplate(ctx, ref);
  if (template.deleted_at !== null) throw DELETED();
  await checkAreaOpen(ctx, template.group_id);
  const o = await overridesOf(ctx, template, body);
  const { usable, skipped } = await makeable(ctx, await childrenOf(ctx, [template.id]));
  const projectOf = await seenProjectOf(ctx, [template, ...usable]);
  const main = o.projectId !== undefined ? o.projectId : projectOf(template);
  const at = now();
  const rows = await makeTasks(
    ctx,
    [template, ...usable],
    // A parent and its children usually share a project: its dates are read once.
    projectAnchors(ctx, at),
    // A child's task goes with its parent's: into the body's project, else its own, else the parent's.
    // Its date moves from that project's (task_created cannot leave the range): projectId names it.
    (t) =>
      t.id === template.id
        ? { ...o, projectId: main }
        : {
            projectId: o.projectId !== undefined ? o.projectId : (projectOf(t) ?? main),
            dateField: 'projectId',
          },
    at,
  );
  return { made: rows[0]!, skipped };
}

/**
 * The tasks of a project made from a project template: one per live task template scoped to it
 * (and per child of those) that the caller may make, in the new project, dates resolved against the
 * project's.
 */
export async function createTasksForProject(
  ctx: Context,
  projectTemplateId: string,
  project: { id: string; created_at: string; start_date: string | null; due_date: string | null },
  at: string,
): Promise<MadeTasks<TaskRow[]>> {
  const scope = { type: 'project_template', id: projectTemplateId } as const;
  const scoped = await firstRows(
    ctx,
    repo.TEMPLATE_LIST,
    repo.templateConditions({ scope, live: true }),
    1000,
  );
  // The children of a template left out are left out with it.
  const parents = await makeable(ctx, scoped);
  const ids = new Set(scoped.map((t) => t.id));
  const children = await makeable(
    ctx,
    (
      await childrenOf(
        ctx,
        parents.usable.map((t) => t.id),
      )
    ).filter((t) => !ids.has(t.id)),
  );
  const anchors: Anchors = {
    task_created: at,
    project_created: project.created_at,
    project_start: project.start_date,
    project_due: project.due_date,
  };
  const rows = await makeTasks(
    ctx,
    [...parents.usable, ...children.usable],
    async () => anchors,
    // A date moves from the project's start or due date, which the body's startDate or dueDate set.
    (t) => ({
      projectId: project.id,
      dateField: t.relative_date_event_type === 'project_start' ? 'startDate' : 'dueDate',
    }),
    at,
  );
  return { made: rows, skipped: [...parents.skipped, ...children.skipped] };
}
