// Project templates to API objects: their areas for a whole list at once. An area hidden from the
// caller stays out of areaIds and areas, as a project's hidden teams do.
import type { Context } from '../../context.ts';
import * as groups from '../groups/lookup.ts';
import type { ProjectTemplate } from './schema.ts';
import type { LoadedTemplate } from './service.ts';

export async function presentProjectTemplates(
  ctx: Context,
  templates: LoadedTemplate[],
  opts: { includeMarkdown?: boolean } = {},
): Promise<ProjectTemplate[]> {
  const [areas, visibility] = await Promise.all([
    groups
      .groupsByIds(
        ctx,
        templates.flatMap((t) => [t.row.owned_by_area_id, ...t.areaIds]),
      )
      .then((list) => new Map(list.map((g) => [g.id, g]))),
    groups.groupVisibility(ctx),
  ]);
  const ref = (id: string) => {
    const g = areas.get(id)!;
    return { id: g.id, name: g.name, publicId: g.public_id };
  };
  return templates.map(({ row, areaIds: all }) => {
    const areaIds = all.filter((id) => visibility.visible.has(id));
    return {
      id: row.id,
      publicId: row.public_id,
      name: row.name,
      description: opts.includeMarkdown
        ? { html: row.description_html, markdown: row.description_markdown }
        : { html: row.description_html },
      color: row.color,
      icon: row.icon,
      workspaceId: row.workspace_id,
      ownedByAreaId: row.owned_by_area_id,
      ownerId: row.owner_id,
      dueDate: row.due_date,
      startDate: row.start_date,
      relativeDueDateCount: row.relative_due_date_count,
      relativeDueDateUnit: row.relative_due_date_unit,
      relativeDueDateDirection: row.relative_due_date_direction,
      relativeDueDateEventType: row.relative_due_date_event_type,
      relativeStartDateCount: row.relative_start_date_count,
      relativeStartDateUnit: row.relative_start_date_unit,
      relativeStartDateDirection: row.relative_start_date_direction,
      relativeStartDateEventType: row.relative_start_date_event_type,
      createdById: row.created_by_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      deletedAt: row.deleted_at,
      deletedById: row.deleted_by_id,
      ownedByArea: ref(row.owned_by_area_id),
      areas: areaIds.map(ref),
      areaIds,
    };
  });
}
