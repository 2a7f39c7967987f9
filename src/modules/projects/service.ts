// Operations on projects, each inside the caller's transaction, each writing its event.
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import type { Page, PageRequest, Tiered, Total } from '../../db/keyset.ts';
import { type Condition, listPage, searchPage } from '../../db/listing.ts';
import { lockDerived } from '../../db/locks.ts';
import { distinctWords } from '../../db/search/fold.ts';
import { type MatchMode, plainIndex } from '../../db/search/index.ts';
import { setArchived } from '../../db/state.ts';
import { changedFrom } from '../../events/changes.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError, forbidden, invalid, notFound } from '../../http/errors.ts';
import { textRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import { toTimestampOrNull } from '../../text/dates.ts';
import {
  type Description,
  type DescriptionInput,
  EMPTY,
  fromInput,
  plainText,
} from '../../text/description.ts';
import { slugFor } from '../../text/slug.ts';
import * as collections from '../collections/service.ts';
import * as groups from '../groups/lookup.ts';
import * as posts from '../posts/write.ts';
import * as statuses from '../project-statuses/service.ts';
import * as users from '../users/service.ts';
import { projectFields } from './fields.ts';
import { canChangeProjects } from './policy.ts';
import type { ProjectRow } from './repository.ts';
import * as repo from './repository.ts';
import type { ProjectStatusUpdateBody, ProjectUpsertBody } from './schema.ts';
import { inTeam, projectVisibility } from './visibility.ts';

export interface LoadedProject {
  row: ProjectRow;
  teamIds: string[];
}

/**
 * A project the caller may see, by UUID or publicId; anything else is 404. `forChange` locks it on
 * PostgreSQL until the transaction ends, so concurrent changes queue and read what the other wrote.
 */
export async function loadVisibleProject(
  ctx: Context,
  ref: string,
  forChange = false,
): Promise<LoadedProject> {
  const lock = forChange && ctx.dialect === 'postgres';
  const row = await repo.findProject(ctx.db, ctx.workspace.id, textRef(ref), lock);
  if (!row) throw notFound('Project');
  const teamIds = (await repo.teamsOf(ctx.db, ctx.workspace.id, [row.id])).get(row.id) ?? [];
  if (!(await projectVisibility(ctx)).sees(teamIds)) throw notFound('Project');
  if (forChange) checkVersion(ctx, 'project', row.updated_at);
  return { row, teamIds };
}

/** The projects of these ids (UUIDs) that ctx can see, with their teams, in one query each (event data). */
export async function loadVisibleProjects(ctx: Context, ids: string[]): Promise<LoadedProject[]> {
  const [rows, teams, rule] = await Promise.all([
    repo.findProjects(ctx.db, ctx.workspace.id, ids),
    repo.teamsOf(ctx.db, ctx.workspace.id, ids),
    projectVisibility(ctx),
  ]);
  return rows
    .map((row) => ({ row, teamIds: teams.get(row.id) ?? [] }))
    .filter((project) => rule.sees(project.teamIds));
}

async function loadChangeableProject(ctx: Context, ref: string): Promise<LoadedProject> {
  const loaded = await loadVisibleProject(ctx, ref, true);
  if (!canChangeProjects(ctx.actor)) throw forbidden('Guests cannot change projects');
  return loaded;
}

/** The visible projects among ids (for task expansions and references). */
export async function visibleProjects(ctx: Context, ids: string[]): Promise<Map<string, ProjectRow>> {
  const found = await visibleProjectsWithTeams(ctx, ids);
  return new Map([...found].map(([id, { row }]) => [id, row]));
}

/** The same, with each project's team ids in order (read for the check anyway, in one statement). */
export async function visibleProjectsWithTeams(
  ctx: Context,
  ids: string[],
): Promise<Map<string, { row: ProjectRow; teamIds: string[] }>> {
  const [found, rule] = await Promise.all([
    repo.findProjectsWithTeams(ctx.db, ctx.workspace.id, [...new Set(ids)]),
    projectVisibility(ctx),
  ]);
  return new Map(found.filter((p) => rule.sees(p.teamIds)).map((p) => [p.row.id, p]));
}

export async function teamIdsOf(ctx: Context, projectIds: string[]): Promise<Map<string, string[]>> {
  return repo.teamsOf(ctx.db, ctx.workspace.id, [...new Set(projectIds)]);
}

function projectSlug(ctx: Context, name: string, current?: ProjectRow): Promise<string> {
  return slugFor(
    name,
    'project',
    async (stem) => {
      // Two projects named alike at once would both take the first free slug (db/locks.ts).
      await lockDerived(ctx, 'projects.slug');
      return repo.slugsStartingWith(ctx.db, ctx.workspace.id, stem);
    },
    current?.slug,
  );
}

async function checkTeams(ctx: Context, ids: string[], path: string): Promise<string[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const teams = await groups.visibleTeamIds(ctx, unique);
  unique.forEach((id, i) => {
    if (!teams.has(id)) throw invalid(ids.length === 1 ? path : `${path}/${i}`, 'no team with this id');
  });
  return unique;
}

async function checkReferences(ctx: Context, body: ProjectUpsertBody): Promise<void> {
  // Only someone the caller may name (users.findInDirectory); anyone else reads as an unknown id.
  if (body.ownerId && !(await users.findInDirectory(ctx, body.ownerId))) {
    throw invalid('ownerId', 'no user with this id in the workspace');
  }
  if (body.statusId && !(await statuses.findStatus(ctx, body.statusId.toLowerCase()))) {
    throw invalid('statusId', 'no project status with this id');
  }
  if (body.collectionId && !(await collections.findCollection(ctx, body.collectionId.toLowerCase()))) {
    throw invalid('collectionId', 'no collection with this id');
  }
}

function describe(input: DescriptionInput | null | undefined) {
  return input === null || input === undefined ? EMPTY : fromInput(input);
}

/** The projects' search index, written by every path that changes a name or description. */
export const PROJECT_INDEX = plainIndex<ProjectRow>(repo.PROJECT_TARGET, (row) => ({
  name: row.name,
  description: plainText(row.description_html),
}));

/** POST /v1/projects: create, or update when `id` is given. */
export async function upsertProject(
  ctx: Context,
  body: ProjectUpsertBody,
): Promise<{ project: LoadedProject; created: boolean }> {
  const at = now();
  if (body.id !== undefined) return { project: await updateProject(ctx, body.id, body, at), created: false };
  if (!canChangeProjects(ctx.actor)) throw forbidden('Guests cannot create projects');
  if (body.name === undefined) throw invalid('name', 'is required when creating');
  if (body.teamId === undefined && body.teamIds === undefined)
    throw invalid('teamId', 'is required when creating');
  const teamIds = await checkTeams(
    ctx,
    [...(body.teamId ? [body.teamId] : []), ...(body.teamIds ?? [])],
    body.teamId ? 'teamId' : 'teamIds',
  );
  await checkReferences(ctx, body);
  const project = await insertNew(
    ctx,
    {
      name: body.name.trim(),
      icon: body.icon ?? null,
      color: body.color ?? null,
      startDate: toTimestampOrNull(body.startDate ?? null, 'startDate'),
      dueDate: toTimestampOrNull(body.dueDate ?? null, 'dueDate'),
      ownerId: body.ownerId === undefined ? ctx.actor.id : (body.ownerId?.toLowerCase() ?? null),
      collectionId: body.collectionId?.toLowerCase() ?? null,
      statusId: body.statusId?.toLowerCase(),
      description: describe(body.description),
    },
    teamIds,
    at,
  );
  return { project, created: true };
}

interface NewProject {
  name: string;
  icon: string | null;
  color: string | null;
  startDate: string | null;
  dueDate: string | null;
  ownerId: string | null;
  collectionId: string | null;
  /** Default: the workspace's first project status. */
  statusId?: string;
  description: Description;
}

/** Writes a checked new project in its groups, indexed, with its event. */
async function insertNew(
  ctx: Context,
  p: NewProject,
  groupIds: string[],
  at: string,
): Promise<LoadedProject> {
  const statusId = p.statusId ?? (await statuses.listStatuses(ctx))[0]?.id;
  if (!statusId) throw new AppError('conflict', 'The workspace has no project statuses');
  const row = await repo.insertProject(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    public_id: String(await nextValues(ctx.db, ctx.workspace.id, 'project')),
    name: p.name,
    slug: await projectSlug(ctx, p.name),
    icon: p.icon,
    color: p.color,
    start_date: p.startDate,
    due_date: p.dueDate,
    owner_id: p.ownerId,
    collection_id: p.collectionId,
    status_id: statusId,
    description_html: p.description.html,
    description_markdown: p.description.markdown,
    archived_at: null,
    created_by_id: ctx.actor.id,
    created_at: at,
    updated_at: at,
  });
  await repo.replaceTeams(ctx.db, ctx.workspace.id, row.id, groupIds);
  await PROJECT_INDEX.write(ctx, row);
  await recordEvent(ctx, 'project.created', row.id, at);
  return { row, teamIds: groupIds };
}

/**
 * A project in an area, made from a template (project-templates module, which checked the area and
 * the values): the area variant, with no teams and no collection. Its owner must be in the workspace.
 */
export async function createInArea(
  ctx: Context,
  areaId: string,
  p: Omit<NewProject, 'collectionId' | 'statusId'>,
  at: string,
): Promise<LoadedProject> {
  if (!canChangeProjects(ctx.actor)) throw forbidden('Guests cannot create projects');
  if (p.ownerId && !(await users.findInDirectory(ctx, p.ownerId)))
    throw invalid('ownerId', 'no user with this id in the workspace');
  return insertNew(ctx, { ...p, collectionId: null }, [areaId], at);
}

async function updateProject(
  ctx: Context,
  ref: string,
  body: ProjectUpsertBody,
  at: string,
): Promise<LoadedProject> {
  const current = await loadChangeableProject(ctx, ref);
  if ((await groups.visibleAreaIds(ctx, current.teamIds)).size > 0) {
    for (const field of ['teamId', 'teamIds', 'collectionId'] as const)
      if (body[field] !== undefined)
        throw invalid(field, 'this project belongs to an area (areaId): it has no teams or collection');
  }
  await checkReferences(ctx, body);
  const changes: Partial<ProjectRow> = { updated_at: changedAt(current.row.updated_at, at) };
  if (body.name !== undefined) {
    changes.name = body.name.trim();
    changes.slug = await projectSlug(ctx, changes.name, current.row);
  }
  if (body.icon !== undefined) changes.icon = body.icon;
  if (body.color !== undefined) changes.color = body.color;
  if (body.startDate !== undefined) changes.start_date = toTimestampOrNull(body.startDate, 'startDate');
  if (body.dueDate !== undefined) changes.due_date = toTimestampOrNull(body.dueDate, 'dueDate');
  if (body.ownerId !== undefined) changes.owner_id = body.ownerId?.toLowerCase() ?? null;
  if (body.collectionId !== undefined) changes.collection_id = body.collectionId?.toLowerCase() ?? null;
  if (body.statusId !== undefined) changes.status_id = body.statusId.toLowerCase();
  if (body.description !== undefined) {
    const d = describe(body.description);
    changes.description_html = d.html;
    changes.description_markdown = d.markdown;
  }
  let teamIds = current.teamIds;
  if (body.teamId !== undefined || body.teamIds !== undefined) {
    const given = body.teamIds ?? [body.teamId!];
    const visible = await checkTeams(
      ctx,
      body.teamIds && body.teamId ? [body.teamId, ...body.teamIds] : given,
      body.teamIds ? 'teamIds' : 'teamId',
    );
    // The caller's list replaces only the teams it sees: teams hidden from it stay, after them.
    const seen = await groups.groupVisibility(ctx);
    const hidden = current.teamIds.filter((id) => !seen.visible.has(id));
    teamIds = [...visible, ...hidden];
    await repo.replaceTeams(ctx.db, ctx.workspace.id, current.row.id, teamIds);
  }
  await repo.updateProject(ctx.db, ctx.workspace.id, current.row.id, changes);
  const row = { ...current.row, ...changes };
  if (changes.name !== undefined || changes.description_html !== undefined)
    await PROJECT_INDEX.write(ctx, row);
  const seen = await groups.groupVisibility(ctx);
  const fields = (p: LoadedProject) => projectFields(p, seen, true).out;
  await recordEvent(
    ctx,
    'project.updated',
    row.id,
    at,
    changedFrom(fields(current), fields({ row, teamIds })),
  );
  return { row, teamIds };
}

export async function archiveProject(ctx: Context, ref: string): Promise<LoadedProject> {
  const current = await loadChangeableProject(ctx, ref);
  if (current.row.archived_at !== null) return current;
  const at = changedAt(current.row.updated_at);
  // Conditional on the current state: archiving twice at once archives (and tells) once.
  if (!(await setArchived(ctx.db, 'projects', ctx.workspace.id, current.row.id, true, at))) return current;
  await recordEvent(ctx, 'project.archived', current.row.id, at);
  return { ...current, row: { ...current.row, archived_at: at, updated_at: at } };
}

export async function unarchiveProject(ctx: Context, ref: string): Promise<LoadedProject> {
  const notArchived = () => new AppError('not_archived', 'This project is not archived');
  const current = await loadChangeableProject(ctx, ref);
  if (current.row.archived_at === null) throw notArchived();
  const at = changedAt(current.row.updated_at);
  if (!(await setArchived(ctx.db, 'projects', ctx.workspace.id, current.row.id, false, at)))
    throw notArchived();
  await recordEvent(ctx, 'project.unarchived', current.row.id, at);
  return { ...current, row: { ...current.row, archived_at: null, updated_at: at } };
}

/** Sets the status and, in the same transaction, posts the status update on the project. */
export async function postStatusUpdate(
  ctx: Context,
  ref: string,
  body: ProjectStatusUpdateBody,
): Promise<LoadedProject> {
  const current = await loadChangeableProject(ctx, ref);
  const statusId = body.statusId.toLowerCase();
  if (!(await statuses.findStatus(ctx, statusId)))
    throw invalid('statusId', 'no project status with this id');
  const at = changedAt(current.row.updated_at);
  const changes = { status_id: statusId, updated_at: at };
  await repo.updateProject(ctx.db, ctx.workspace.id, current.row.id, changes);
  await posts.createPost(ctx, {
    entityType: 'project',
    entityId: current.row.id,
    content: body.content,
    action: 'status_update',
    actionValue: statusId,
    at,
  });
  await recordEvent(ctx, 'project.status_updated', current.row.id, at);
  return { ...current, row: { ...current.row, ...changes } };
}

/** Ids of the projects the caller sees whose name matches every word (the tasks' projectName filter). */
export async function projectIdsByName(ctx: Context, nameWords: string[]): Promise<string[]> {
  const rule = await projectVisibility(ctx);
  return repo.projectIdsWhere(ctx.db, ctx.workspace.id, [
    ...rule.where,
    repo.textMatches(ctx.search, { field: 'name', words: nameWords }),
  ]);
}

export interface ProjectListFilter {
  teamId?: string;
  ownerId?: string;
  statusId?: string;
  collectionId?: string;
  includeArchived: boolean;
}

// `updatedSince`: the search's sync filter, which the list does not take.
async function listConditions(
  ctx: Context,
  f: ProjectListFilter & { updatedSince?: string },
  list = true,
): Promise<Condition[]> {
  const where: Condition[] = [...(await projectVisibility(ctx)).where];
  if (f.teamId) where.push(await inTeam(ctx, f.teamId, list));
  where.push(
    ...repo.projectConditions({
      ownerId: f.ownerId?.toLowerCase(),
      statusId: f.statusId?.toLowerCase(),
      collectionId: f.collectionId?.toLowerCase(),
      live: !f.includeArchived,
      updatedSince: f.updatedSince,
    }),
  );
  return where;
}

/** GET /v1/projects/list: newest first. */
export async function listProjects(
  ctx: Context,
  f: ProjectListFilter,
  page: PageRequest,
  withTotal: boolean,
): Promise<Page<ProjectRow> & { total?: number }> {
  return listPage(ctx, repo.PROJECT_LIST, await listConditions(ctx, f), page, withTotal);
}

export interface ProjectSearch {
  name?: string;
  description?: string;
  ownerName?: string;
  teamName?: string;
  mode: MatchMode;
  teamId?: string;
  includeArchived: boolean;
  /** Extension (sync): changed at or after this instant, in the stored form. */
  updatedSince?: string;
}

/** GET /v1/projects/search: relevance tiers (search.md), then most recently updated first. */
export async function searchProjects(
  ctx: Context,
  s: ProjectSearch,
  page: PageRequest,
): Promise<Page<Tiered<ProjectRow>> & Total> {
  const fields: (Condition | null)[] = [];
  for (const field of ['name', 'description'] as const) {
    const w = distinctWords(s[field]);
    if (w.length > 0) fields.push(repo.textMatches(ctx.search, { field, words: w }));
  }
  const ownerWords = distinctWords(s.ownerName);
  if (ownerWords.length > 0) {
    const ids = await users.userIdsByName(ctx, ownerWords);
    fields.push(repo.ownedByAny(ids));
  }
  const teamWords = distinctWords(s.teamName);
  if (teamWords.length > 0) {
    // Only teams the caller sees: a hidden team's name must not find the projects it shares.
    const ids = await groups.teamIdsByName(ctx, teamWords);
    fields.push(ids.length > 0 ? repo.hasTeamIn(ids) : null);
  }
  const filter = { teamId: s.teamId, includeArchived: s.includeArchived, updatedSince: s.updatedSince };
  const where = await listConditions(ctx, filter, false);
  return searchPage(ctx, repo.PROJECT_SEARCH, { fields, mode: s.mode, where }, page);
}
