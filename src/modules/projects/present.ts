// Projects to API objects; the asked-for expansions of a whole page are loaded together.
import type { Context } from '../../context.ts';
import type { Presentation } from '../../http/query.ts';
import * as collections from '../collections/service.ts';
import * as groups from '../groups/lookup.ts';
import * as statuses from '../project-statuses/service.ts';
import * as users from '../users/service.ts';
import type { ProjectRow } from './repository.ts';
import type { Project, ProjectExpansion } from './schema.ts';
import { type LoadedProject, teamIdsOf } from './service.ts';

export type ProjectPresentation = Presentation<ProjectExpansion>;

export async function presentProjects(
  ctx: Context,
  projects: LoadedProject[],
  { expand, includeMarkdown }: ProjectPresentation,
): Promise<Project[]> {
  const rows = projects.map((p) => p.row);
  const owners = expand.has('owner')
    ? new Map(
        (
          await users.usersByIds(
            ctx,
            rows.flatMap((r) => (r.owner_id ? [r.owner_id] : [])),
          )
        ).map((u) => [u.id, u]),
      )
    : undefined;
  const projectStatuses = expand.has('status')
    ? new Map(
        (
          await statuses.statusesByIds(
            ctx,
            rows.map((r) => r.status_id),
          )
        ).map((s) => [s.id, s]),
      )
    : undefined;
  const collectionRows = expand.has('collection')
    ? new Map(
        (
          await collections.collectionsByIds(
            ctx,
            rows.flatMap((r) => (r.collection_id ? [r.collection_id] : [])),
          )
        ).map((c) => [c.id, c]),
      )
    : undefined;
  const groupRows =
    expand.has('teams') || expand.has('area')
      ? new Map(
          (
            await groups.groupsByIds(
              ctx,
              projects.flatMap((p) => p.teamIds),
            )
          ).map((g) => [g.id, g]),
        )
      : undefined;
  // A project can span a team the caller cannot see: that team's id stays out of the response.
  const visibility = await groups.groupVisibility(ctx);

  return projects.map(({ row, teamIds: allTeamIds }) => {
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
    if (owners) {
      const u = row.owner_id ? owners.get(row.owner_id) : undefined;
      out.owner = u ? { id: u.id, name: u.name, email: u.email } : null;
    }
    if (projectStatuses) {
      const s = projectStatuses.get(row.status_id)!;
      out.status = { id: s.id, name: s.name, color: s.color, icon: s.icon };
    }
    if (groupRows && areaId) {
      const g = groupRows.get(areaId)!;
      out.area = { id: g.id, name: g.name, publicId: g.public_id };
    } else if (groupRows) {
      out.teams = teamIds
        .filter((id) => groupRows.has(id))
        .map((id) => {
          const g = groupRows.get(id)!;
          return { id: g.id, name: g.name, publicId: g.public_id };
        });
    }
    if (collectionRows && !areaId) {
      const c = row.collection_id ? collectionRows.get(row.collection_id) : undefined;
      out.collection = c ? { id: c.id, name: c.name } : null;
    }
    return out;
  });
}

/** Projects of a list or search page: their team ids in one query, then presentProjects. */
export async function presentProjectRows(
  ctx: Context,
  rows: ProjectRow[],
  p: ProjectPresentation,
): Promise<Project[]> {
  const teams = await teamIdsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return presentProjects(
    ctx,
    rows.map((row) => ({ row, teamIds: teams.get(row.id) ?? [] })),
    p,
  );
}
