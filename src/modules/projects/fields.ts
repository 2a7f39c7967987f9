// A project's own fields as a reader sees them, without expansions: what present.ts adds the
// expansions to, and what a project.updated event compares before and after the change (service.ts).
// A file of its own because the service needs it and present.ts imports the service.
import type { GroupVisibility } from '../groups/lookup.ts';
import type { Project } from './schema.ts';
import type { LoadedProject } from './service.ts';

export function projectFields(
  { row, teamIds: allTeamIds }: LoadedProject,
  visibility: GroupVisibility,
  includeMarkdown: boolean,
): { out: Project; teamIds: string[]; areaId: string | undefined } {
  const teamIds = visibility.all ? allTeamIds : allTeamIds.filter((id) => visibility.visible.has(id));
  // A project made from a template belongs to one area, and reads as the area variant.
  const areaId = teamIds.find((id) => !visibility.visibleTeams.has(id));
  const out: Project = {
    id: row.id,
    publicId: row.public_id,
    name: row.name,
    slug: row.slug,
    icon: row.icon,
    color: row.color,
    startDate: row.start_date,
    dueDate: row.due_date,
    ownerId: row.owner_id,
    ...(areaId ? { areaId } : { collectionId: row.collection_id }),
    workspaceId: row.workspace_id,
    statusId: row.status_id,
    archivedAt: row.archived_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(areaId ? {} : { teamIds }),
    description: includeMarkdown
      ? { html: row.description_html, markdown: row.description_markdown }
      : { html: row.description_html },
  };
  return { out, teamIds, areaId };
}
