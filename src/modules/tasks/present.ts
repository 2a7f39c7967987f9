// Tasks to API objects. Labels and every asked-for expansion come with one statement for the whole
// page (expansions.ts); a task read by id comes with them in the statement that finds it.
import type { Kysely } from 'kysely';
import type { Context } from '../../context.ts';
import type { Dialect } from '../../db/index.ts';
import type { DB } from '../../db/types.ts';
import { notFound } from '../../http/errors.ts';
import { numberRef } from '../../http/ids.ts';
import type { Presentation } from '../../http/query.ts';
import * as groups from '../groups/lookup.ts';
import { projectVisibility } from '../projects/visibility.ts';
import {
  type ExpansionColumns,
  expansionsOf,
  findTaskExpanded,
  type Joined,
  jsonList,
} from './expansions.ts';
import type { TaskRow } from './repository.ts';
import type { Task, TaskExpansion } from './schema.ts';
import { taskFacts, taskVisibility } from './visibility.ts';

export type TaskPresentation = Presentation<TaskExpansion>;

/** What a page's tasks are presented with besides their expansions. */
interface Seen {
  /** The caller's visible teams: a task's group is a team, or an area (which names its fields). */
  visibleTeams: Set<string>;
  /** Whether the caller sees a project with these teams; only when the project is expanded. */
  seesProject?: (teamIds: string[]) => boolean;
}

export async function presentTasks(
  ctx: Context,
  rows: TaskRow[],
  { expand, includeMarkdown }: TaskPresentation,
): Promise<Task[]> {
  const [expansions, seen] = await Promise.all([
    rows.length > 0
      ? expansionsOf(ctx.db, ctx.dialect, ctx.workspace.id, rows, joinedOf(expand))
      : ([] as ExpansionColumns[]),
    seenBy(ctx, expand),
  ]);
  return rows.map((row, i) => presentTask(row, expansions[i]!, seen, expand, includeMarkdown));
}

/**
 * GET /v1/tasks/{id}: the task the caller may see (deleted or not; anything else is 404, as
 * service.loadVisibleTask), found with its expansions in one statement and presented.
 */
export async function presentVisibleTask(
  ctx: Context,
  ref: string,
  { expand, includeMarkdown }: TaskPresentation,
  started?: Promise<{ found: TaskExpandedRow | undefined } | undefined>,
): Promise<Task> {
  const parsed = numberRef(ref);
  if (!parsed) throw notFound('Task');
  const [row, rule, seen] = await Promise.all([
    Promise.resolve(started).then((read) =>
      read ? read.found : findTaskExpanded(ctx.db, ctx.dialect, ctx.workspace.id, parsed, joinedOf(expand)),
    ),
    taskVisibility(ctx),
    seenBy(ctx, expand),
  ]);
  if (!row || !rule.sees(taskFacts(row))) throw notFound('Task');
  return presentTask(row, row, seen, expand, includeMarkdown);
}

type TaskExpandedRow = TaskRow & ExpansionColumns;

/**
 * GET /v1/tasks/{id}'s read, started beside the token lookup (http/prefetch.ts): with every join, as the
 * raw query string's `expand` is not read yet; presentTask uses only the asked-for ones.
 */
export function prefetchTask(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  ref: string,
): Promise<TaskExpandedRow | undefined> {
  const parsed = numberRef(ref);
  return parsed ? findTaskExpanded(db, dialect, workspaceId, parsed, EVERY_JOIN) : Promise.resolve(undefined);
}

const EVERY_JOIN: readonly Joined[] = ['status', 'group', 'project', 'assignee'];

function joinedOf(expand: TaskPresentation['expand']): Joined[] {
  const joined: Joined[] = [];
  if (expand.has('status')) joined.push('status');
  if (expand.has('team') || expand.has('area')) joined.push('group');
  if (expand.has('project')) joined.push('project');
  if (expand.has('assignee')) joined.push('assignee');
  return joined;
}

async function seenBy(ctx: Context, expand: TaskPresentation['expand']): Promise<Seen> {
  const [visibility, projects] = await Promise.all([
    groups.groupVisibility(ctx),
    // A task can sit in a project the caller cannot see: its expansion is then null.
    expand.has('project') ? projectVisibility(ctx) : undefined,
  ]);
  return { visibleTeams: visibility.visibleTeams, seesProject: projects?.sees };
}

function presentTask(
  row: TaskRow,
  e: ExpansionColumns,
  seen: Seen,
  expand: TaskPresentation['expand'],
  includeMarkdown: boolean,
): Task {
  const isArea = !seen.visibleTeams.has(row.group_id);
  const out = taskFields(row, jsonList(e.label_ids), isArea, includeMarkdown);
  addExpansions(out, e, isArea, seen, expand);
  return out;
}

/**
 * A task's own fields, without expansions; also what a task.updated event compares before and after
 * the change (service.ts).
 */
export function taskFields(
  row: TaskRow,
  labelIds: string[],
  isArea: boolean,
  includeMarkdown: boolean,
): Task {
  return {
    id: row.id,
    publicId: Number(row.public_id),
    name: row.name,
    description: includeMarkdown
      ? { html: row.description_html, markdown: row.description_markdown }
      : { html: row.description_html },
    dueDate: row.due_date,
    completedAt: row.completed_at,
    priority: Boolean(row.priority),
    visibility: row.visibility,
    createdById: row.created_by_id,
    projectId: row.project_id,
    ...(isArea ? { areaId: row.group_id } : { teamId: row.group_id }),
    statusId: row.status_id,
    assignedToId: row.assigned_to_id,
    repeatId: row.repeat_id,
    labelIds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
}

/** The asked-for expansions of one task onto its API object. */
function addExpansions(
  out: Task,
  e: ExpansionColumns,
  isArea: boolean,
  seen: Seen,
  expand: TaskPresentation['expand'],
): void {
  if (expand.has('status')) {
    out.status = { id: e.s_id!, name: e.s_name!, stage: e.s_stage!, color: e.s_color! };
  }
  if (expand.has('team') || expand.has('area')) {
    out[isArea ? 'area' : 'team'] = { id: e.g_id!, name: e.g_name!, publicId: e.g_public_id! };
  }
  if (seen.seesProject) {
    const visible = e.p_id && seen.seesProject(jsonList(e.p_teams));
    out.project = visible ? { id: e.p_id!, name: e.p_name! } : null;
  }
  if (expand.has('assignee')) {
    out.assignee = e.u_id ? { id: e.u_id, name: e.u_name!, email: e.u_email! } : null;
  }
}
