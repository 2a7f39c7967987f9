// Task templates to API objects: their labels and areas for a whole list at once.
import type { Context } from '../../context.ts';
import * as groups from '../groups/lookup.ts';
import type { TaskTemplateRow } from './repository.ts';
import type { TaskTemplate } from './schema.ts';
import { labelIdsOf } from './service.ts';

export async function presentTaskTemplates(ctx: Context, rows: TaskTemplateRow[]): Promise<TaskTemplate[]> {
  const areaIds = rows.map((r) => r.group_id);
  const [labelIds, labels, areas] = await Promise.all([
    labelIdsOf(
      ctx,
      rows.map((r) => r.id),
    ),
    groups.labelsOfGroups(ctx, areaIds).then((list) => new Map(list.map((l) => [l.id, l]))),
    groups.groupsByIds(ctx, areaIds).then((list) => new Map(list.map((g) => [g.id, g]))),
  ]);
  return rows.map((row) => {
    const area = areas.get(row.group_id)!;
    return {
      id: row.id,
      publicId: row.public_id,
      name: row.name,
      description: { html: row.description_html },
      priority: Boolean(row.priority),
      visibility: row.visibility,
      statusId: row.status_id,
      statusStage: row.status_stage,
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
