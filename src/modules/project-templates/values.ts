// A project template's values, checked as a whole: what a create or an update leaves it holding
// (fields given replace, null clears, absent keep).
import { type Context, now } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import { type Anchors, type RelativeDate, resolveDate } from '../../text/relative-dates.ts';
import { mergedCalendar, mergedDescription, mergedRelative, pick } from '../../text/template-fields.ts';
import * as groups from '../groups/lookup.ts';
import * as users from '../users/service.ts';
import type { ProjectTemplateRow } from './repository.ts';
import type { ProjectTemplateUpsertBody } from './schema.ts';

type Fields = Omit<
  ProjectTemplateRow,
  | 'seq'
  | 'workspace_id'
  | 'id'
  | 'public_id'
  | 'created_by_id'
  | 'created_at'
  | 'updated_at'
  | 'deleted_at'
  | 'deleted_by_id'
>;

type DateFields = Pick<
  ProjectTemplateRow,
  | 'start_date'
  | 'due_date'
  | `relative_${'start' | 'due'}_date_${'count' | 'unit' | 'direction' | 'event_type'}`
>;

function relativeDue(t: DateFields): RelativeDate | null {
  return t.relative_due_date_count === null
    ? null
    : {
        count: t.relative_due_date_count,
        unit: t.relative_due_date_unit!,
        direction: t.relative_due_date_direction!,
        event: t.relative_due_date_event_type!,
      };
}

function relativeStart(t: DateFields): RelativeDate | null {
  return t.relative_start_date_count === null
    ? null
    : {
        count: t.relative_start_date_count,
        unit: t.relative_start_date_unit!,
        direction: t.relative_start_date_direction!,
        event: t.relative_start_date_event_type!,
      };
}

/** Which field a date that cannot be resolved is named by: the body's dates when a project is made. */
export const USE_FIELDS = { start: 'startDate', due: 'dueDate' };
/** When the template is made or changed: its relative dates, as it stands (no body overrides). */
const MAKE_FIELDS = { start: 'relativeStartDateCount', due: 'relativeDueDateCount' };

/**
 * A project's dates: the given ones, else the template's relative or calendar ones. A start relative to
 * the due date (or the reverse) is resolved once the other is known; checkEvents refuses cycles. A date
 * landing outside the years 1 to 9999 is a 400 naming `fields`' start or due.
 */
export function projectDates(
  t: DateFields,
  given: { startDate?: string | null; dueDate?: string | null },
  at: string,
  fields: { start: string; due: string },
) {
  let start = given.startDate;
  let due = given.dueDate;
  const rs = relativeStart(t);
  const rd = relativeDue(t);
  const anchors = (): Anchors => ({
    task_created: at,
    project_created: at,
    project_start: start ?? null,
    project_due: due ?? null,
  });
  for (let round = 0; round < 2; round++) {
    if (start === undefined && (rs?.event !== 'project_due' || due !== undefined))
      start = resolveDate(rs, t.start_date, anchors(), fields.start);
    if (due === undefined && (rd?.event !== 'project_start' || start !== undefined))
      due = resolveDate(rd, t.due_date, anchors(), fields.due);
  }
  return { startDate: start ?? null, dueDate: due ?? null };
}

/** A project's relative date: not after a task's creation, nor after itself; start and due not in a circle. */
function checkEvents(start: RelativeDate | null, due: RelativeDate | null) {
  if (start?.event === 'task_created' || start?.event === 'project_start')
    throw invalid('relativeStartDateEventType', 'must be project_created or project_due for a project');
  if (due?.event === 'task_created' || due?.event === 'project_due')
    throw invalid('relativeDueDateEventType', 'must be project_created or project_start for a project');
  if (start?.event === 'project_due' && due?.event === 'project_start')
    throw invalid('relativeStartDateEventType', 'start and due dates cannot each be relative to the other');
}

async function areaIdsOf(
  ctx: Context,
  body: ProjectTemplateUpsertBody,
  currentAreas: string[],
): Promise<string[]> {
  if (body.areaIds === undefined) return currentAreas;
  const ids = [...new Set(body.areaIds)];
  const visible = await groups.visibleAreaIds(ctx, ids);
  body.areaIds.forEach((id, i) => {
    if (!visible.has(id)) throw invalid(`areaIds/${i}`, 'no area with this id');
  });
  // The caller's list replaces only the areas it sees: areas hidden from it stay, after them.
  const seen = await groups.groupVisibility(ctx);
  return [...ids, ...currentAreas.filter((id) => !seen.visible.has(id))];
}

/** Every value the template will hold, checked, and its areas (the same array when unchanged). */
export async function checkTemplate(
  ctx: Context,
  body: ProjectTemplateUpsertBody,
  current: ProjectTemplateRow | undefined,
  currentAreas: string[],
): Promise<{ row: Fields; areaIds: string[] }> {
  if (!current && body.name === undefined) throw invalid('name', 'is required when creating');
  const area = body.ownedByAreaId ?? current?.owned_by_area_id;
  if (!area) throw invalid('ownedByAreaId', 'is required when creating');
  if (area !== current?.owned_by_area_id && !(await groups.visibleAreaIds(ctx, [area])).has(area))
    throw invalid('ownedByAreaId', 'no area with this id');
  if (body.ownerId && !(await users.findInDirectory(ctx, body.ownerId)))
    throw invalid('ownerId', 'no user with this id in the workspace');
  const due = mergedRelative(body, current, 'relativeDueDate');
  const start = mergedRelative(body, current, 'relativeStartDate');
  checkEvents(start, due);
  const description = mergedDescription(body.description, current);
  const row: Fields = {
    name: body.name?.trim() ?? current!.name,
    description_html: description.html,
    description_markdown: description.markdown,
    color: pick(body.color, current?.color ?? null),
    icon: pick(body.icon, current?.icon ?? null),
    owned_by_area_id: area,
    owner_id: pick(body.ownerId, current?.owner_id ?? null),
    due_date: mergedCalendar(body.dueDate, current?.due_date, 'dueDate'),
    start_date: mergedCalendar(body.startDate, current?.start_date, 'startDate'),
    relative_due_date_count: due?.count ?? null,
    relative_due_date_unit: due?.unit ?? null,
    relative_due_date_direction: due?.direction ?? null,
    relative_due_date_event_type: due?.event ?? null,
    relative_start_date_count: start?.count ?? null,
    relative_start_date_unit: start?.unit ?? null,
    relative_start_date_direction: start?.direction ?? null,
    relative_start_date_event_type: start?.event ?? null,
  };
  // Where it can be known now: the template's own dates, used as they stand, must be dates.
  projectDates(row, {}, now(), MAKE_FIELDS);
  return { row, areaIds: await areaIdsOf(ctx, body, currentAreas) };
}
