// Operations on tasks, each inside the caller's transaction (or batch savepoint), each writing its event.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { type Context, changedAt, now } from '../../context.ts';
import { addToCounters, countersUpsert } from '../../db/counters.ts';
import type { TaskStage, Visibility } from '../../db/types.ts';
import { changedFrom } from '../../events/changes.ts';
import { recordEvent, recordEventsAlongside } from '../../events/outbox.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { numberRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import { toTimestampOrNull } from '../../text/dates.ts';
import { type Description, EMPTY, fromInput } from '../../text/description.ts';
import * as groups from '../groups/lookup.ts';
import * as projects from '../projects/service.ts';
import * as users from '../users/service.ts';
import { countMoves, moveCounts } from './counts.ts';
import { taskFields } from './present.ts';
import type { TaskRow } from './repository.ts';
import * as repo from './repository.ts';
import { TASK_INDEX } from './repository.ts';
import type { TaskUpsertBody } from './schema.ts';
import { statusByStage, templateStatus } from './status-choice.ts';
import { taskFacts, taskVisibility } from './visibility.ts';

/**
 * Counters that make an unfiltered total cheap (search.ts): tasks are never removed and `task` (the
 * publicId counter) moves in the same transaction as each insert, so it is the number of tasks;
 * `tasks.deleted` is how many of them are soft-deleted.
 */
export const TASK_COUNTER = 'task';
export const DELETED_COUNTER = 'tasks.deleted';

/**
 * A task the caller may see, deleted or not; anything else is 404. `forChange` locks the row on
 * PostgreSQL until the transaction ends (every read-modify-write loads this way), so concurrent
 * changes queue and each computes its change, and the index entry, from the row as committed.
 */
export async function loadVisibleTask(ctx: Context, ref: string, forChange = false): Promise<TaskRow> {
  const parsed = numberRef(ref);
  const lock = forChange && ctx.dialect === 'postgres';
  if (!parsed) throw notFound('Task');
  const [row, rule] = await Promise.all([
    repo.findTask(ctx.db, ctx.workspace.id, parsed, lock),
    taskVisibility(ctx),
  ]);
  if (!row || !rule.sees(taskFacts(row))) throw notFound('Task');
  if (forChange) checkVersion(ctx, 'task', row.updated_at);
  return row;
}

/** The tasks of these ids that ctx can see, in one query (the event renderer's page of events). */
export async function loadVisibleTasks(ctx: Context, ids: string[]): Promise<TaskRow[]> {
  const [rows, rule] = await Promise.all([
    repo.findTasksByIds(ctx.db, ctx.workspace.id, ids),
    taskVisibility(ctx),
  ]);
  return rows.filter((row) => rule.sees(taskFacts(row)));
}

async function checkTeam(ctx: Context, id: string, path: string): Promise<string> {
  if (!(await groups.visibleTeamIds(ctx, [id])).has(id)) throw invalid(path, 'no team with this id');
  return id;
}

async function checkProject(ctx: Context, id: string): Promise<string> {
  return (await checkedProject(ctx, id)).id;
}

/** A project the caller sees, with its teams in order (a create without teamId takes the first). */
async function checkedProject(ctx: Context, ref: string): Promise<{ id: string; teamIds: string[] }> {
  const id = ref.toLowerCase();
  const found = (await projects.visibleProjectsWithTeams(ctx, [id])).get(id);
  if (!found) throw invalid('projectId', 'no project with this id');
  return { id, teamIds: found.teamIds };
}

/** How an error names a team: `"Engineering" (ENG)`, so the client knows which team's statuses apply. */
async function teamLabel(ctx: Context, groupId: string): Promise<string> {
  const [team] = await groups.groupsByIds(ctx, [groupId]);
  return team ? `"${team.name}" (${team.public_id})` : 'which has no such entry';
}

interface StatusChoice {
  id: string;
  stage: TaskStage;
}

/** The status of a task in `groupId`: the given one (which must be the team's), else `fallback`. */
async function chooseStatus(
  ctx: Context,
  groupId: string,
  given: string | undefined,
  fallbackStage: TaskStage | undefined,
): Promise<StatusChoice> {
  const statuses = await groups.statusesOfGroup(ctx, groupId);
  if (given !== undefined) {
    const found = statuses.find((s) => s.id === given.toLowerCase());
    if (!found)
      throw invalid('statusId', `not a status of the task's team, ${await teamLabel(ctx, groupId)}`);
    return found;
  }
  const chosen = statusByStage(statuses, fallbackStage);
  if (!chosen) throw new AppError('conflict', "The task's team has no statuses");
  return chosen;
}

async function checkLabels(ctx: Context, groupId: string, labelIds: string[]): Promise<string[]> {
  if (labelIds.length === 0) return [];
  const own = new Set((await groups.labelsOfGroup(ctx, groupId)).map((l) => l.id));
  const out = labelIds.map((id) => id.toLowerCase());
  const label = out.some((id) => !own.has(id)) ? await teamLabel(ctx, groupId) : '';
  out.forEach((id, i) => {
    if (!own.has(id)) throw invalid(`labelIds/${i}`, `not a label of the task's team, ${label}`);
  });
  return [...new Set(out)];
}

/**
 * An assignee must be someone the caller may name (users.findInDirectory: a guest, only the people of
 * its groups); anyone else reads as an unknown id. The task's current assignee, sent back unchanged,
 * is kept: the task already shows that person to whoever sees it.
 */
async function checkAssignee(
  ctx: Context,
  id: string | null,
  current: string | null = null,
): Promise<string | null> {
  if (id === null) return null;
  const lower = id.toLowerCase();
  if (lower !== current && !(await users.findInDirectory(ctx, lower)))
    throw invalid('assignedToId', 'no user with this id in the workspace');
  return lower;
}

export interface SavedTask {
  row: TaskRow;
  created: boolean;
}

/**
 * POST /v1/tasks and each batch entry: create, or update when `id` is given. `at` is the change time
 * and `newId` the id a created task gets (a batch hands out ids in submission order, see batch.ts).
 */
export async function upsertTask(
  ctx: Context,
  body: TaskUpsertBody,
  at = now(),
  newId = randomUUID(),
): Promise<SavedTask> {
  if (body.id !== undefined) return updateTask(ctx, body.id, body, at);
  const [row] = await insertCreates(ctx, [await prepareCreate(ctx, body, at, newId)]);
  return { row: row!, created: true };
}

/** A create that passed every check, ready to write (its publicId and seq come with the insert). */
export interface PreparedCreate {
  fields: Omit<TaskRow, 'seq' | 'public_id'>;
  labelIds: string[];
}

/** Checks a create and works out its row. Reads only, so a batch can check many before writing any. */
export async function prepareCreate(
  ctx: Context,
  body: TaskUpsertBody,
  at: string,
  newId: string,
): Promise<PreparedCreate> {
  if (body.name === undefined) throw invalid('name', 'is required when creating');
  const project = body.projectId ? await checkedProject(ctx, body.projectId) : null;
  const projectId = project?.id ?? null;
  let groupId: string;
  if (body.teamId !== undefined) groupId = await checkTeam(ctx, body.teamId.toLowerCase(), 'teamId');
  else {
    const first = project?.teamIds[0];
    if (!first) throw invalid('teamId', 'is required unless projectId names a project with a team');
    groupId = await checkTeam(ctx, first, 'projectId');
  }
  const status = await chooseStatus(ctx, groupId, body.statusId, undefined);
  return {
    fields: newRow(ctx, at, newId, {
      name: body.name.trim(),
      description: body.description ? fromInput(body.description) : EMPTY,
      dueDate: toTimestampOrNull(body.dueDate ?? null, 'dueDate'),
      priority: body.priority ?? false,
      visibility: body.visibility ?? 'workspace',
      projectId,
      groupId,
      status,
      assignedToId: await checkAssignee(ctx, body.assignedToId ?? null),
    }),
    labelIds: await checkLabels(ctx, groupId, body.labelIds ?? []),
  };
}

interface NewTask {
  name: string;
  description: Description;
  dueDate: string | null;
  priority: boolean;
  visibility: Visibility;
  projectId: string | null;
  groupId: string;
  status: StatusChoice;
  assignedToId: string | null;
}

function newRow(ctx: Context, at: string, id: string, t: NewTask): PreparedCreate['fields'] {
  return {
    workspace_id: ctx.workspace.id,
    id,
    name: t.name,
    description_html: t.description.html,
    description_markdown: t.description.markdown,
    due_date: t.dueDate,
    completed_at: t.status.stage === 'completed' ? at : null,
    priority: t.priority,
    visibility: t.visibility,
    created_by_id: ctx.actor.id,
    project_id: t.projectId,
    group_id: t.groupId,
    status_id: t.status.id,
    assigned_to_id: t.assignedToId,
    repeat_id: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
}

/** A task to make in an area from a template (task-templates module); the area is already checked. */
export interface AreaTask {
  areaId: string;
  name: string;
  description: Description;
  dueDate: string | null;
  priority: boolean;
  visibility: Visibility;
  /** The template's status, when it is still one of the area's; else the first of `stage`. */
  statusId: string | null;
  stage: TaskStage | null;
  assignedToId: string | null;
  projectId: string | null;
  labelIds: string[];
}

/**
 * Checks a task made from a template and works out its row; write it with insertCreates. A status or
 * label the area no longer has is left out (the stage, then the area's default, stands in), and so
 * is an assignee no longer in the workspace; a project must be one the caller sees.
 */
export async function prepareAreaCreate(
  ctx: Context,
  t: AreaTask,
  at: string,
  newId = randomUUID(),
): Promise<PreparedCreate> {
  const status = templateStatus(await groups.statusesOfGroup(ctx, t.areaId), t.statusId, t.stage);
  if (!status) throw new AppError('conflict', "The template's area has no statuses");
  const labels = new Set((await groups.labelsOfGroup(ctx, t.areaId)).map((l) => l.id));
  // A template's assignee outside the caller's directory counts as none: the task would show them.
  const assignee =
    t.assignedToId && (await users.findInDirectory(ctx, t.assignedToId)) ? t.assignedToId : null;
  return {
    fields: newRow(ctx, at, newId, {
      ...t,
      groupId: t.areaId,
      projectId: t.projectId === null ? null : await checkProject(ctx, t.projectId),
      status,
      assignedToId: assignee,
    }),
    labelIds: t.labelIds.filter((id) => labels.has(id)),
  };
}

/**
 * Writes checked creates, in order, with a fixed number of statements however many there are: the
 * events, the publicIds with the counts, the rows (with their index columns), their labels, the rest
 * of the index. On PostgreSQL the first three are one statement (tasks/repository.ts insertTasksWith),
 * where the round trips, not the statements, cost; the counters' rows are locked from it to the
 * commit either way. On SQLite the events come first because they need nothing else: from the
 * counters' upsert on, the writer holds the counters, so as little as possible follows it.
 */
export async function insertCreates(ctx: Context, creates: PreparedCreate[]): Promise<TaskRow[]> {
  if (creates.length === 0) return [];
  const ids = creates.map(({ fields }) => fields.id);
  // The publicIds are reserved with the counts' move, in one statement.
  const deltas = countMoves(
    creates.map(({ fields }) => ({ before: null, after: fields })),
    [[TASK_COUNTER, creates.length]],
  );
  const indexed = creates.map(({ fields }) => ({ ...fields, index: TASK_INDEX.columns(ctx, fields) }));
  const events = await recordEventsAlongside(ctx, 'task.created', ids, creates[0]!.fields.created_at);
  let rows: TaskRow[];
  if (events) {
    const counters = countersUpsert(ctx.db, ctx.workspace.id, deltas)!;
    rows = await repo.insertTasksWith(ctx.db, indexed, { events, counters, publicIds: TASK_COUNTER });
  } else {
    const first =
      (await addToCounters(ctx.db, ctx.workspace.id, deltas)).get(TASK_COUNTER)! - creates.length + 1;
    rows = await repo.insertTasks(
      ctx.db,
      indexed.map((row, i) => ({ ...row, public_id: first + i })),
    );
  }
  await repo.insertLabelLinks(
    ctx.db,
    creates.flatMap(({ fields, labelIds }) =>
      labelIds.map((label_id) => ({ workspace_id: ctx.workspace.id, task_id: fields.id, label_id })),
    ),
  );
  await TASK_INDEX.writeNew(ctx, rows);
  return rows;
}

const DELETED = () => new AppError('deleted', 'This task is deleted; restore it first');

async function updateTask(ctx: Context, ref: string, body: TaskUpsertBody, at: string): Promise<SavedTask> {
  const current = await loadVisibleTask(ctx, ref, true);
  if (current.deleted_at !== null) throw DELETED();
  at = changedAt(current.updated_at, at);
  const changes: Partial<TaskRow> = { updated_at: at };
  if (body.name !== undefined) changes.name = body.name.trim();
  if (body.description !== undefined) {
    const d = body.description === null ? EMPTY : fromInput(body.description);
    changes.description_html = d.html;
    changes.description_markdown = d.markdown;
  }
  if (body.dueDate !== undefined) changes.due_date = toTimestampOrNull(body.dueDate, 'dueDate');
  if (body.priority !== undefined) changes.priority = body.priority;
  if (body.visibility !== undefined) changes.visibility = body.visibility;
  if (body.assignedToId !== undefined)
    changes.assigned_to_id = await checkAssignee(ctx, body.assignedToId, current.assigned_to_id);
  if (body.projectId !== undefined)
    changes.project_id = body.projectId === null ? null : await checkProject(ctx, body.projectId);

  if (
    body.teamId !== undefined &&
    (await groups.visibleAreaIds(ctx, [current.group_id])).has(current.group_id)
  )
    throw invalid('teamId', 'this task belongs to an area (areaId): it cannot move to a team');
  const groupId =
    body.teamId !== undefined ? await checkTeam(ctx, body.teamId.toLowerCase(), 'teamId') : current.group_id;
  const moved = groupId !== current.group_id;
  const [currentStatus] = await groups.statusesByIds(ctx, [current.status_id]);
  if (moved || body.statusId !== undefined) {
    // Moving to another team keeps the stage: the new team's first status of the same stage.
    const status = await chooseStatus(ctx, groupId, body.statusId, currentStatus?.stage);
    changes.group_id = groupId;
    changes.status_id = status.id;
    const wasCompleted = currentStatus?.stage === 'completed';
    if (status.stage === 'completed') changes.completed_at = wasCompleted ? current.completed_at : at;
    else changes.completed_at = null;
  }
  let labelIds: string[] | undefined;
  if (body.labelIds !== undefined) labelIds = await checkLabels(ctx, groupId, body.labelIds);
  else if (moved) {
    // Labels belong to a team: those of the old team do not follow the task.
    const kept = (await repo.labelIdsOf(ctx.db, ctx.workspace.id, [current.id])).get(current.id) ?? [];
    const own = new Set((await groups.labelsOfGroup(ctx, groupId)).map((l) => l.id));
    labelIds = kept.filter((id) => own.has(id));
  }
  const labels =
    labelIds === undefined
      ? undefined
      : {
          before: await repo.replaceLabels(ctx.db, ctx.workspace.id, current.id, labelIds),
          after: labelIds,
        };

  const textChanged = changes.name !== undefined || changes.description_html !== undefined;
  const index = textChanged ? TASK_INDEX.columns(ctx, { ...current, ...changes }) : {};
  const seq = await repo.updateTask(
    ctx.db,
    ctx.dialect,
    ctx.workspace.id,
    current.id,
    'live',
    changes,
    index,
  );
  if (seq === null) throw DELETED();
  const row = { ...current, ...changes, seq };
  await TASK_INDEX.write(ctx, row, current.seq);
  // The event before the counters, whose rows stay locked until the commit: as little as possible
  // follows them.
  await recordEvent(ctx, 'task.updated', row.id, at, taskChanges(current, row, labels));
  await moveCounts(ctx, [{ before: current, after: row }]);
  return { row, created: false };
}

/**
 * What a task.updated event says changed: the task's fields before and after, as GET shows them
 * (events/changes.ts). The labels are compared as a set (GET lists them in their team's order,
 * whatever order the body gave); unless the update replaced them they are the same on both sides. A
 * task's group changes only from team to team, so the field is named teamId on both sides.
 */
function taskChanges(before: TaskRow, after: TaskRow, labels?: { before: string[]; after: string[] }) {
  const was = labels?.before ?? [];
  const same = labels === undefined || isDeepStrictEqual([...labels.after].sort(), [...was].sort());
  return changedFrom(
    taskFields(before, was, false, true),
    taskFields(after, same ? was : labels.after, false, true),
  );
}

/** DELETE /v1/tasks/{id}: soft delete; deleting a deleted task changes nothing. */
export async function deleteTask(ctx: Context, ref: string): Promise<void> {
  const current = await loadVisibleTask(ctx, ref, true);
  if (current.deleted_at !== null) return;
  const at = changedAt(current.updated_at);
  const changes = { deleted_at: at, updated_at: at };
  // Only a real change moves the counter and writes the event (a racing delete finds it done).
  const seq = await repo.updateTask(ctx.db, ctx.dialect, ctx.workspace.id, current.id, 'live', changes);
  if (seq === null) return;
  await TASK_INDEX.write(ctx, { ...current, ...changes, seq }, current.seq);
  await recordEvent(ctx, 'task.deleted', current.id, at);
  await moveCounts(ctx, [{ before: current, after: { ...current, ...changes } }], [[DELETED_COUNTER, 1]]);
}

export async function restoreTask(ctx: Context, ref: string): Promise<TaskRow> {
  const notDeleted = () => new AppError('not_deleted', 'This task is not deleted');
  const current = await loadVisibleTask(ctx, ref, true);
  if (current.deleted_at === null) throw notDeleted();
  const at = changedAt(current.updated_at);
  const changes = { deleted_at: null, updated_at: at };
  const seq = await repo.updateTask(ctx.db, ctx.dialect, ctx.workspace.id, current.id, 'deleted', changes);
  if (seq === null) throw notDeleted();
  const row = { ...current, ...changes, seq };
  await TASK_INDEX.write(ctx, row, current.seq);
  await recordEvent(ctx, 'task.restored', row.id, at);
  await moveCounts(ctx, [{ before: current, after: row }], [[DELETED_COUNTER, -1]]);
  return row;
}

/** How many tasks use each status (a team's status cannot be removed while tasks use it). */
export function countByStatus(ctx: Context, statusIds: string[]): Promise<Map<string, number>> {
  return repo.countByStatus(ctx.db, ctx.workspace.id, statusIds);
}
