// Task templates to API objects: their labels and areas for a whole list at once.
import type { Context } from '../../context.ts';
import { groupBy } from '../../db/rows.ts';
import type { TaskStage } from '../../db/types.ts';
import * as groups from '../groups/lookup.ts';
import type { StatusRow } from '../groups/repository.ts';
import { templateStatus } from '../tasks/status-choice.ts';
import type { TaskTemplateRow } from './repository.ts';
import type { TaskTemplate } from './schema.ts';
import { labelIdsOf } from './service.ts';

/**
 * The status a template shows is the one a task made from it gets (tasks/status-choice.ts): its
 * statusId only while the area has that status, and then that status's stage; otherwise the stage
 * create-task will use. A template that names neither shows neither (the area's default).
 */
function statusOf(row: TaskTemplateRow, statuses: StatusRow[]) {
  if (row.status_id === null && row.status_stage === null) return { statusId: null, statusStage: null };
  const used = templateStatus(statuses, row.status_id, row.status_stage as TaskStage | null);
  return {
    statusId: used && used.id === row.status_id ? used.id : null,
    statusStage: (used?.stage ?? row.status_stage) as TaskStage | null,
  };
}

export async function presentTaskTemplates(
  ctx: Context,
  rows: TaskTemplateRow[],
  opts: { includeMarkdown?: boolean } = {},
): Promise<TaskTemplate[]> {
  const areaIds = rows.map((r) => r.group_id);
  const [labelIds, labels, areas, statuses] = await Promise.all([
    labelIdsOf(
      ctx,
      rows.map((r) => r.id),
    ),
    groups.labelsOfGroups(ctx, areaIds).then((list) => new Map(list.map((l) => [l.id, l]))),
    groups.groupsByIds(ctx, areaIds).then((list) => new Map(list.map((g) => [g.id, g]))),
    groups.statusesOfGroups(ctx, areaIds).then((list) => groupBy(list, (s) => s.group_id)),
  ]);
  return rows.map((row) => {
    const area = areas.get(row.group_id)!;
    return {
      id: row.id,
      publicId: row.public_id,
      name: row.name,
      description: opts.includeMarkdown
        ? { html: row.description_html, markdown: row.description_markdown }
        : { html: row.description_html },
      priority: Boolean(row.priority),
      visibility: row.visibility,
      ...statusOf(row, statuses.get(row.group_id) ?? []),
      assignedToId: row.assigned_to_id,
      projectId: row.project_id,
      areaId: row.group_id,
      workspaceId: row.workspace_id,
      scopeType: row.scope_type,
      scopeId: row.scope_id,
      parentTaskTemplateId: row.parent_task_template_id,
      dueDate: row.due_date,
      startDate: row.start_date,
      relativeDateCount: row.relative_date_count,
      relativeDateUnit: row.relative_date_unit,
      relativeDateDirection: row.relative_date_direction,
      relativeDateEventType: row.relative_date_event_type,
      createdById: row.created_by_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      deletedAt: row.deleted_at,
      labels: (labelIds.get(row.id) ?? []).flatMap((id) => {
        const l = labels.get(id);
        return l ? [{ id: l.id, name: l.name, color: l.color }] : [];
      }),
      area: { id: area.id, name: area.name, publicId: area.public_id },
    };
  });
}
