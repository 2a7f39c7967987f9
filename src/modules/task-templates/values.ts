// A task template's values, checked as a whole: what a create or an update leaves the template
// holding (fields given replace, null clears, absent keep), against its area.
import { type Context, now } from '../../context.ts';
import type { TaskStage } from '../../db/types.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { type Anchors, type RelativeDate, resolveDate } from '../../text/relative-dates.ts';
import { mergedCalendar, mergedDescription, mergedRelative, pick } from '../../text/template-fields.ts';
import * as groups from '../groups/lookup.ts';
import { loadVisibleProjectTemplate } from '../project-templates/lookup.ts';
import { projectDates, USE_FIELDS } from '../project-templates/values.ts';
import * as projects from '../projects/service.ts';
import * as users from '../users/service.ts';
import type { TaskTemplateRow } from './repository.ts';
import * as repo from './repository.ts';
import type { TaskTemplateUpsertBody } from './schema.ts';

type Fields = Omit<
  TaskTemplateRow,
  'seq' | 'workspace_id' | 'id' | 'public_id' | 'created_by_id' | 'created_at' | 'updated_at' | 'deleted_at'
>;

export function relativeOf(t: TaskTemplateRow): RelativeDate | null {
  return t.relative_date_count === null
    ? null
    : {
        count: t.relative_date_count,
        unit: t.relative_date_unit!,
        direction: t.relative_date_direction!,
        event: t.relative_date_event_type!,
      };
}

/** The area and scope: a template scoped to a project template lives in that template's area. */
async function areaAndScope(ctx: Context, body: TaskTemplateUpsertBody, current?: TaskTemplateRow) {
  const scopeType = body.scopeType ?? current?.scope_type ?? 'area';
  if (scopeType === 'project_template') {
    const areaOf = (areaId: string) => {
      if (body.areaId !== undefined && body.areaId !== areaId)
        throw invalid('areaId', "must be the project template's area (ownedByAreaId) when scoped to it");
    };
    // An unchanged scope stays as it is, even if its project template was deleted since: the template
    // remains editable (and is then simply not made by that project template any more).
    if (
      current?.scope_type === 'project_template' &&
      body.scopeType === undefined &&
      body.scopeId === undefined
    ) {
      areaOf(current.group_id);
      return { areaId: current.group_id, scopeType, scopeId: current.scope_id };
    }
    const scopeId = pick(body.scopeId, current?.scope_type === 'project_template' ? current.scope_id : null);
    if (!scopeId) throw invalid('scopeId', 'is required when scopeType is project_template');
    const scope = await loadVisibleProjectTemplate(ctx, scopeId).catch((error) => {
      if (error instanceof AppError && error.code === 'not_found') return undefined;
      throw error;
    });
    if (!scope || scope.deleted_at !== null) throw invalid('scopeId', 'no project template with this id');
    areaOf(scope.owned_by_area_id);
    const areaId = scope.owned_by_area_id;
    return { areaId, scopeType, scopeId: scope.id };
  }
  const areaId = body.areaId ?? current?.group_id;
  if (!areaId) throw invalid('areaId', 'is required when creating (unless scopeType is project_template)');
  if (areaId !== current?.group_id && !(await groups.visibleAreaIds(ctx, [areaId])).has(areaId))
    throw invalid('areaId', 'no area with this id');
  if (body.scopeId && body.scopeId !== areaId)
    throw invalid('scopeId', 'must be the areaId when scopeType is area');
  return { areaId, scopeType, scopeId: areaId };
}

async function statusOf(
  ctx: Context,
  areaId: string,
  body: TaskTemplateUpsertBody,
  current?: TaskTemplateRow,
) {
  const statuses = await groups.statusesOfGroup(ctx, areaId);
  const given = body.statusId;
  if (given) {
    const status = statuses.find((s) => s.id === given);
    if (!status) throw invalid('statusId', "not a status of the template's area");
    if (body.statusStage && body.statusStage !== status.stage)
      throw invalid('statusStage', `must be the stage of statusId (${status.stage})`);
    return { status_id: status.id, status_stage: status.stage as TaskStage };
  }
  // Kept only while it is still a status of the (possibly new) area, and of the stage if one is given;
  // the stage stands in otherwise. Kept without a stage given, it brings its stage as it is now (the
  // area may have changed it), as the template shows it (present.ts).
  const kept = given === null ? undefined : statuses.find((s) => s.id === current?.status_id);
  if (kept && body.statusStage === undefined) return { status_id: kept.id, status_stage: kept.stage };
  const stage = pick(body.statusStage, current?.status_stage ?? null) as TaskStage | null;
  const statusId = kept && kept.stage === stage ? kept.id : null;
  return { status_id: statusId, status_stage: stage };
}

async function labelsOf(
  ctx: Context,
  areaId: string,
  body: TaskTemplateUpsertBody,
  current?: TaskTemplateRow,
) {
  const own = new Set((await groups.labelsOfGroup(ctx, areaId)).map((l) => l.id));
  if (body.labelIds !== undefined) {
    body.labelIds.forEach((id, i) => {
      if (!own.has(id)) throw invalid(`labelIds/${i}`, "not a label of the template's area");
    });
    return [...new Set(body.labelIds)];
  }
  if (!current || current.group_id === areaId) return undefined;
  // Moved to another area: the old area's labels do not follow.
  const kept = (await repo.labelIdsOf(ctx.db, ctx.workspace.id, [current.id])).get(current.id) ?? [];
  return kept.filter((id) => own.has(id));
}

async function parentOf(ctx: Context, body: TaskTemplateUpsertBody, current?: TaskTemplateRow) {
  const given = body.parentTaskTemplateId;
  if (given === undefined) return current?.parent_task_template_id ?? null;
  if (given === null) return null;
  // Attaching changes the parent too: it is locked like any row a write reads (PostgreSQL), so that two
  // attaches at once cannot nest two levels or attach to a parent being deleted.
  const parent = await repo.findTemplate(ctx.db, ctx.workspace.id, { id: given }, ctx.dialect === 'postgres');
  const visibility = await groups.groupVisibility(ctx);
  if (
    !parent ||
    parent.deleted_at !== null ||
    !visibility.visible.has(parent.group_id) ||
    parent.id === current?.id
  )
    throw invalid('parentTaskTemplateId', 'no task template with this id');
  if (parent.parent_task_template_id !== null)
    throw invalid('parentTaskTemplateId', 'is itself a child template: templates nest one level');
  if (current && (await repo.hasChildren(ctx.db, ctx.workspace.id, current.id)))
    throw invalid('parentTaskTemplateId', 'this template has child templates: templates nest one level');
  return parent.id;
}

/** A visible, live project template, or undefined: a scope another check has already judged. */
async function scopeTemplate(ctx: Context, id: string) {
  const scope = await loadVisibleProjectTemplate(ctx, id).catch((error) => {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  });
  return scope?.deleted_at === null ? scope : undefined;
}

/**
 * The dates a relative date can move from that are known now: the template's project's, or those the
 * project template it is scoped to gives a new project (when they are dates themselves).
 */
async function knownAnchors(ctx: Context, row: Fields, at: string): Promise<Anchors> {
  if (row.scope_type === 'project_template' && row.scope_id) {
    const scope = await scopeTemplate(ctx, row.scope_id);
    if (!scope) return {};
    try {
      const dates = projectDates(scope, {}, at, USE_FIELDS);
      return { project_created: at, project_start: dates.startDate, project_due: dates.dueDate };
    } catch (error) {
      if (error instanceof AppError && error.code === 'validation_failed') return {};
      throw error;
    }
  }
  const project =
    row.project_id && (await projects.visibleProjects(ctx, [row.project_id])).get(row.project_id);
  return project
    ? {
        project_created: project.created_at,
        project_start: project.start_date,
        project_due: project.due_date,
      }
    : {};
}

/**
 * Where it can be known now, the relative date must land in the years 1 to 9999 (400 naming
 * relativeDateCount), rather than leave the tasks made from the template without a date.
 */
async function checkRelativeDate(ctx: Context, row: Fields, relative: RelativeDate | null) {
  if (!relative) return;
  const at = now();
  resolveDate(
    relative,
    null,
    { task_created: at, ...(await knownAnchors(ctx, row, at)) },
    'relativeDateCount',
  );
}

/** Every value the template will hold, checked; `labelIds` when they change. */
export async function checkTemplate(
  ctx: Context,
  body: TaskTemplateUpsertBody,
  current: TaskTemplateRow | undefined,
): Promise<{ row: Fields; labelIds?: string[] }> {
  if (!current && body.name === undefined) throw invalid('name', 'is required when creating');
  const { areaId, scopeType, scopeId } = await areaAndScope(ctx, body, current);
  const status = await statusOf(ctx, areaId, body, current);
  if (body.assignedToId && !(await users.findInDirectory(ctx, body.assignedToId)))
    throw invalid('assignedToId', 'no user with this id in the workspace');
  if (body.projectId && !(await projects.visibleProjects(ctx, [body.projectId])).has(body.projectId))
    throw invalid('projectId', 'no project with this id');
  const relative = mergedRelative(body, current, 'relativeDate');
  const description = mergedDescription(body.description, current);
  const row: Fields = {
    name: body.name?.trim() ?? current!.name,
    description_html: description.html,
    description_markdown: description.markdown,
    priority: pick(body.priority, current ? Boolean(current.priority) : false),
    visibility: pick(body.visibility, current?.visibility ?? 'workspace'),
    ...status,
    assigned_to_id: pick(body.assignedToId, current?.assigned_to_id ?? null),
    project_id: pick(body.projectId, current?.project_id ?? null),
    group_id: areaId,
    scope_type: scopeType,
    scope_id: scopeId,
    parent_task_template_id: await parentOf(ctx, body, current),
    due_date: mergedCalendar(body.dueDate, current?.due_date, 'dueDate'),
    start_date: mergedCalendar(body.startDate, current?.start_date, 'startDate'),
    relative_date_count: relative?.count ?? null,
    relative_date_unit: relative?.unit ?? null,
    relative_date_direction: relative?.direction ?? null,
    relative_date_event_type: relative?.event ?? null,
  };
  await checkRelativeDate(ctx, row, relative);
  return { row, labelIds: await labelsOf(ctx, areaId, body, current) };
}
