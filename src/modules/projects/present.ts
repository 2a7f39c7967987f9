// Projects to API objects; the asked-for expansions of a whole page are loaded together.
import type { Context } from '../../context.ts';
import { byId } from '../../db/rows.ts';
import type { Presentation } from '../../http/query.ts';
import type { CollectionRow } from '../collections/repository.ts';
import * as collections from '../collections/service.ts';
import * as groups from '../groups/lookup.ts';
import type { GroupRow } from '../groups/repository.ts';
import type { ProjectStatusRow } from '../project-statuses/repository.ts';
import * as statuses from '../project-statuses/service.ts';
import type { UserRow } from '../users/repository.ts';
import * as users from '../users/service.ts';
import { projectFields } from './fields.ts';
import type { ProjectRow } from './repository.ts';
import type { Project, ProjectExpansion } from './schema.ts';
import { type LoadedProject, teamIdsOf } from './service.ts';

export type ProjectPresentation = Presentation<ProjectExpansion>;

export async function presentProjects(
  ctx: Context,
  projects: LoadedProject[],
  { expand, includeMarkdown }: ProjectPresentation,
): Promise<Project[]> {
  const loaded = await loadExpansions(ctx, projects, expand);
  return projects.map((project) => presentProject(project, loaded, includeMarkdown));
}

/** What a page's projects are presented with: the asked-for expansions by id, and team visibility. */
interface Loaded {
  owners?: Map<string, UserRow>;
  statuses?: Map<string, ProjectStatusRow>;
  collections?: Map<string, CollectionRow>;
  groups?: Map<string, GroupRow>;
  visibility: groups.GroupVisibility;
}

async function loadExpansions(
  ctx: Context,
  projects: LoadedProject[],
  expand: ProjectPresentation['expand'],
): Promise<Loaded> {
  const rows = projects.map((p) => p.row);
  // Independent lookups, run together as the tasks' presenter does: on PostgreSQL outside a
  // transaction each takes its own connection, so a page waits for one round trip, not five.
  const [owners, projectStatuses, collectionRows, groupRows, visibility] = await Promise.all([
    expand.has('owner')
      ? users
          .usersByIds(
            ctx,
            rows.flatMap((r) => (r.owner_id ? [r.owner_id] : [])),
          )
          .then(byId)
      : undefined,
    expand.has('status')
      ? statuses
          .statusesByIds(
            ctx,
            rows.map((r) => r.status_id),
          )
          .then(byId)
      : undefined,
    expand.has('collection')
      ? collections
          .collectionsByIds(
            ctx,
            rows.flatMap((r) => (r.collection_id ? [r.collection_id] : [])),
          )
          .then(byId)
      : undefined,
    expand.has('teams') || expand.has('area')
      ? groups
          .groupsByIds(
            ctx,
            projects.flatMap((p) => p.teamIds),
          )
          .then(byId)
      : undefined,
    // A project can span a team the caller cannot see: that team's id stays out of the response.
    groups.groupVisibility(ctx),
  ]);
  return { owners, statuses: projectStatuses, collections: collectionRows, groups: groupRows, visibility };
}

function presentProject(project: LoadedProject, loaded: Loaded, includeMarkdown: boolean): Project {
  const { out, teamIds, areaId } = projectFields(project, loaded.visibility, includeMarkdown);
  addExpansions(out, project.row, teamIds, areaId, loaded);
  return out;
}

/** The asked-for expansions of one project (those in `loaded`) onto its API object. */
function addExpansions(
  out: Project,
  row: ProjectRow,
  teamIds: string[],
  areaId: string | undefined,
  loaded: Loaded,
): void {
  if (loaded.owners) {
    const u = row.owner_id ? loaded.owners.get(row.owner_id) : undefined;
    out.owner = u ? { id: u.id, name: u.name, email: u.email } : null;
  }
  if (loaded.statuses) {
    const s = loaded.statuses.get(row.status_id)!;
    out.status = { id: s.id, name: s.name, color: s.color, icon: s.icon };
  }
  const groupRows = loaded.groups;
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
  if (loaded.collections && !areaId) {
    const c = row.collection_id ? loaded.collections.get(row.collection_id) : undefined;
    out.collection = c ? { id: c.id, name: c.name } : null;
  }
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
