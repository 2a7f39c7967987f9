import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { findByRef } from '../../db/by-id.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import { groupBy } from '../../db/rows.ts';
import type { FieldQuery, PlainTarget, SearchProvider } from '../../db/search/index.ts';
import type { DB, ProjectsTable } from '../../db/types.ts';

/** The projects' text index (FTS5 table and tsvector columns, made by the migrations). */
export const PROJECT_TARGET = {
  table: 'projects',
  fts: 'projects_fts',
  fields: ['name', 'description'],
  tagged: false,
} as const satisfies PlainTarget;

export type ProjectRow = Selectable<ProjectsTable>;

const COLUMNS = [
  'p.seq',
  'p.workspace_id',
  'p.id',
  'p.public_id',
  'p.name',
  'p.slug',
  'p.icon',
  'p.color',
  'p.start_date',
  'p.due_date',
  'p.owner_id',
  'p.collection_id',
  'p.status_id',
  'p.description_html',
  'p.description_markdown',
  'p.archived_at',
  'p.created_by_id',
  'p.created_at',
  'p.updated_at',
] as const;

const SOURCE = { from: 'projects as p', columns: COLUMNS } as const;

export async function insertProject(db: Kysely<DB>, row: Omit<ProjectRow, 'seq'>): Promise<ProjectRow> {
  const { seq } = await db.insertInto('projects').values(row).returning('seq').executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}

export async function updateProject(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<ProjectRow>,
) {
  await db
    .updateTable('projects')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** A project by id or publicId; `forUpdate` (PostgreSQL) locks it until the transaction ends. */
export function findProject(
  db: Kysely<DB>,
  workspaceId: string,
  ref: { id: string } | { publicId: string },
  forUpdate = false,
): Promise<ProjectRow | undefined> {
  return findByRef<ProjectRow>(db, SOURCE, workspaceId, ref, forUpdate);
}

export function findProjects(db: Kysely<DB>, workspaceId: string, ids: string[]): Promise<ProjectRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('projects as p')
    .select(COLUMNS)
    .where('p.workspace_id', '=', workspaceId)
    .where('p.id', 'in', ids)
    .execute();
}

/**
 * Projects by id with their teams' ids in order, in one statement (a project without teams has none):
 * a write that checks a project it names needs both.
 */
export async function findProjectsWithTeams(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
): Promise<{ row: ProjectRow; teamIds: string[] }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('projects as p')
    .leftJoin('project_teams as pt', (join) =>
      join.onRef('pt.workspace_id', '=', 'p.workspace_id').onRef('pt.project_id', '=', 'p.id'),
    )
    .select([...COLUMNS, 'pt.group_id as team_id'])
    .where('p.workspace_id', '=', workspaceId)
    .where('p.id', 'in', ids)
    .orderBy('p.id')
    .orderBy('pt.position')
    .execute();
  const found = new Map<string, { row: ProjectRow; teamIds: string[] }>();
  for (const { team_id, ...row } of rows) {
    let project = found.get(row.id);
    if (!project) {
      project = { row, teamIds: [] };
      found.set(row.id, project);
    }
    if (team_id !== null) project.teamIds.push(team_id);
  }
  return [...found.values()];
}

export async function slugsStartingWith(
  db: Kysely<DB>,
  workspaceId: string,
  stem: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('projects')
    .select('slug')
    .where('workspace_id', '=', workspaceId)
    .where('slug', '>=', stem)
    .where('slug', '<', `${stem}\u007f`)
    .execute();
  return new Set(rows.map((r) => r.slug));
}

/** Team ids of each project, in their order. */
export async function teamsOf(
  db: Kysely<DB>,
  workspaceId: string,
  projectIds: string[],
): Promise<Map<string, string[]>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('project_teams')
    .select(['project_id', 'group_id'])
    .where('workspace_id', '=', workspaceId)
    .where('project_id', 'in', projectIds)
    .orderBy('project_id')
    .orderBy('position')
    .execute();
  return groupBy(
    rows,
    (r) => r.project_id,
    (r) => r.group_id,
  );
}

export async function replaceTeams(
  db: Kysely<DB>,
  workspaceId: string,
  projectId: string,
  groupIds: string[],
) {
  await db
    .deleteFrom('project_teams')
    .where('workspace_id', '=', workspaceId)
    .where('project_id', '=', projectId)
    .execute();
  await db
    .insertInto('project_teams')
    .values(
      groupIds.map((group_id, position) => ({
        workspace_id: workspaceId,
        project_id: projectId,
        group_id,
        position,
      })),
    )
    .execute();
}

/** Projects with at least one team in `groupIds` (visibility), as a condition on alias p. */
export function hasTeamIn(groupIds: string[]): RawBuilder<SqlBool> {
  if (groupIds.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`exists (select 1 from project_teams pt where pt.workspace_id = p.workspace_id
    and pt.project_id = p.id and pt.group_id in (${sql.join(groupIds)}))`;
}

/**
 * Projects of one team (a teamId filter), as a condition on alias p. Written as `p.id in (…)` over
 * the team index rather than hasTeamIn's correlated `exists`, so that a list filtered by a team starts
 * from that team's few projects instead of testing every project of the workspace (SQLite, 5,000
 * projects: 19 → 4 ms). The visibility rule keeps `exists`: over most teams, `in` made SQLite's plan for
 * a member's text search a hundred times slower.
 */
export function ofTeam(workspaceId: string, groupId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`p.id in (select pt.project_id from project_teams pt
    where pt.workspace_id = ${workspaceId} and pt.group_id = ${groupId})`;
}

const fromProjects = (db: Kysely<DB>, workspaceId: string) =>
  db.selectFrom('projects as p').where('p.workspace_id', '=', workspaceId);

/** GET /v1/projects/list: newest first. */
export const PROJECT_LIST = tableListing(
  defineOrder<ProjectRow>([
    { ref: 'p.created_at', dir: 'desc', key: (r) => r.created_at },
    { ref: 'p.id', dir: 'desc', key: (r) => r.id },
  ]),
  fromProjects,
  COLUMNS,
);

/** GET /v1/projects/search: within a relevance tier, most recently updated first. */
export const PROJECT_SEARCH = tableListing(
  defineOrder<ProjectRow>([
    { ref: 'p.updated_at', dir: 'desc', key: (r) => r.updated_at },
    { ref: 'p.id', dir: 'desc', key: (r) => r.id },
  ]),
  fromProjects,
  COLUMNS,
);

/** The filters of project lists and searches, each a condition on the listings' rows (ids lower-case). */
export interface ProjectFilter {
  ownerId?: string;
  statusId?: string;
  collectionId?: string;
  /** Not archived. */
  live?: boolean;
  /** Changed at or after this instant, in the stored form. */
  updatedSince?: string;
}

export function projectConditions(f: ProjectFilter): Condition[] {
  const where: Condition[] = [];
  if (f.ownerId) where.push(sql<SqlBool>`p.owner_id = ${f.ownerId}`);
  if (f.statusId) where.push(sql<SqlBool>`p.status_id = ${f.statusId}`);
  if (f.collectionId) where.push(sql<SqlBool>`p.collection_id = ${f.collectionId}`);
  if (f.live) where.push(sql<SqlBool>`p.archived_at is null`);
  if (f.updatedSince) where.push(sql<SqlBool>`p.updated_at >= ${f.updatedSince}`);
  return where;
}

/** Projects owned by one of `ids` (the ownerName field of a search), or null when none can be. */
export function ownedByAny(ids: string[]): Condition | null {
  return ids.length > 0 ? sql<SqlBool>`p.owner_id in (${sql.join(ids)})` : null;
}

/** A text field's words, as a condition on the listings' rows. */
export function textMatches(search: SearchProvider, query: FieldQuery): Condition {
  return search.matches(PROJECT_TARGET, 'p', [query], 'all');
}

export async function projectIdsWhere(
  db: Kysely<DB>,
  workspaceId: string,
  conditions: Condition[],
): Promise<string[]> {
  let q = fromProjects(db, workspaceId).select('p.id');
  for (const c of conditions) q = q.where(c);
  return (await q.execute()).map((r) => r.id);
}
