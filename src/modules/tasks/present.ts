// Tasks to API objects. Labels and every asked-for expansion are loaded for the whole page at once.
import type { Context } from '../../context.ts';
import { byId } from '../../db/rows.ts';
import type { Presentation } from '../../http/query.ts';
import * as groups from '../groups/lookup.ts';
import * as projects from '../projects/service.ts';
import * as users from '../users/service.ts';
import type { TaskRow } from './repository.ts';
import type { Task, TaskExpansion } from './schema.ts';
import { labelsOf } from './service.ts';

export type TaskPresentation = Presentation<TaskExpansion>;

export async function presentTasks(
  ctx: Context,
  rows: TaskRow[],
  { expand, includeMarkdown }: TaskPresentation,
): Promise<Task[]> {
  const loaded = await loadExpansions(ctx, rows, expand);
  return rows.map((row) => presentTask(row, loaded, includeMarkdown));
}

/** What a page's tasks are presented with: labels, the asked-for expansions by id, group visibility. */
type Loaded = Awaited<ReturnType<typeof loadExpansions>>;

async function loadExpansions(ctx: Context, rows: TaskRow[], expand: TaskPresentation['expand']) {
  // Independent lookups, run together: on PostgreSQL outside a transaction each takes its own
  // connection, so a page costs one round trip of waiting rather than five.
  const [labels, statuses, teams, visibleProjects, assignees, visibility] = await Promise.all([
    labelsOf(
      ctx,
      rows.map((r) => r.id),
    ),
    expand.has('status')
      ? groups
          .statusesByIds(
            ctx,
            rows.map((r) => r.status_id),
          )
          .then(byId)
      : undefined,
    expand.has('team') || expand.has('area')
      ? groups
          .groupsByIds(
            ctx,
            rows.map((r) => r.group_id),
          )
          .then(byId)
      : undefined,
    // A task can sit in a project the caller cannot see: its expansion is then null.
    expand.has('project')
      ? projects.visibleProjects(
          ctx,
          rows.flatMap((r) => (r.project_id ? [r.project_id] : [])),
        )
      : undefined,
    expand.has('assignee')
      ? users
          .usersByIds(
            ctx,
            rows.flatMap((r) => (r.assigned_to_id ? [r.assigned_to_id] : [])),
          )
          .then(byId)
      : undefined,
    // A task's group is a team, or an area for a task made from a template: which names its fields.
    groups.groupVisibility(ctx),
  ]);
  return { labels, statuses, teams, visibleProjects, assignees, visibility };
}

function presentTask(row: TaskRow, loaded: Loaded, includeMarkdown: boolean): Task {
  const isArea = !loaded.visibility.visibleTeams.has(row.group_id);
  const out: Task = {
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
    labelIds: loaded.labels.get(row.id) ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  };
  addExpansions(out, row, isArea, loaded);
  return out;
}

/** The asked-for expansions of one task (those in `loaded`) onto its API object. */
function addExpansions(out: Task, row: TaskRow, isArea: boolean, loaded: Loaded): void {
  const { statuses, teams, visibleProjects, assignees } = loaded;
  if (statuses) {
    const s = statuses.get(row.status_id)!;
    out.status = { id: s.id, name: s.name, stage: s.stage, color: s.color };
  }
  if (teams) {
    const g = teams.get(row.group_id)!;
    out[isArea ? 'area' : 'team'] = { id: g.id, name: g.name, publicId: g.public_id };
  }
  if (visibleProjects) {
    const p = row.project_id ? visibleProjects.get(row.project_id) : undefined;
    out.project = p ? { id: p.id, name: p.name } : null;
  }
  if (assignees) {
    const u = row.assigned_to_id ? assignees.get(row.assigned_to_id) : undefined;
    out.assignee = u ? { id: u.id, name: u.name, email: u.email } : null;
  }
}
