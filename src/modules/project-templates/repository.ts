import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { findByIds, findByRef } from '../../db/by-id.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import { groupBy } from '../../db/rows.ts';
import { updateIfLive } from '../../db/state.ts';
import type { DB, ProjectTemplatesTable } from '../../db/types.ts';

export type ProjectTemplateRow = Selectable<ProjectTemplatesTable>;

const COLUMNS = [
  'pt.seq',
  'pt.workspace_id',
  'pt.id',
  'pt.public_id',
  'pt.name',
  'pt.description_html',
  'pt.description_markdown',
  'pt.color',
  'pt.icon',
  'pt.owned_by_area_id',
  'pt.owner_id',
  'pt.due_date',
  'pt.start_date',
  'pt.relative_due_date_count',
  'pt.relative_due_date_unit',
  'pt.relative_due_date_direction',
  'pt.relative_due_date_event_type',
  'pt.relative_start_date_count',
  'pt.relative_start_date_unit',
  'pt.relative_start_date_direction',
  'pt.relative_start_date_event_type',
  'pt.created_by_id',
  'pt.created_at',
  'pt.updated_at',
  'pt.deleted_at',
  'pt.deleted_by_id',
] as const;

const SOURCE = { from: 'project_templates as pt', columns: COLUMNS } as const;

export async function insertTemplate(
  db: Kysely<DB>,
  row: Omit<ProjectTemplateRow, 'seq'>,
): Promise<ProjectTemplateRow> {
  const { seq } = await db
    .insertInto('project_templates')
    .values(row)
    .returning('seq')
    .executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}

/** Applies `changes` if the template is live; false when it is deleted (a racing delete won). */
export function updateTemplate(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<ProjectTemplateRow>,
): Promise<boolean> {
  return updateIfLive(db, 'project_templates', workspaceId, id, changes);
}

export function findTemplate(
  db: Kysely<DB>,
  workspaceId: string,
  ref: { id: string } | { publicId: string },
  forUpdate = false,
): Promise<ProjectTemplateRow | undefined> {
  return findByRef<ProjectTemplateRow>(db, SOURCE, workspaceId, ref, forUpdate);
}

/** The templates of these ids (UUIDs), in one query. */
export function findTemplatesByIds(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
): Promise<ProjectTemplateRow[]> {
  return findByIds<ProjectTemplateRow>(db, SOURCE, workspaceId, ids);
}

/** GET /v1/project-templates: oldest first. */
export const TEMPLATE_LIST = tableListing(
  defineOrder<ProjectTemplateRow>([
    { ref: 'pt.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 'pt.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('project_templates as pt').where('pt.workspace_id', '=', workspaceId),
  COLUMNS,
);

/** The filters of template lists, each a condition on TEMPLATE_LIST's rows. */
export interface TemplateFilter {
  /** Offered in this area: owned by it, or listing it among its areas. */
  offeredIn?: string;
  ownedByAreaId?: string;
  /** Not deleted. */
  live?: boolean;
}

export function templateConditions(f: TemplateFilter): Condition[] {
  const where: Condition[] = [];
  if (f.offeredIn) {
    where.push(sql<SqlBool>`(pt.owned_by_area_id = ${f.offeredIn} or exists (select 1 from project_template_areas pa
    where pa.workspace_id = pt.workspace_id and pa.template_id = pt.id and pa.group_id = ${f.offeredIn}))`);
  }
  if (f.ownedByAreaId) where.push(sql<SqlBool>`pt.owned_by_area_id = ${f.ownedByAreaId}`);
  if (f.live) where.push(sql<SqlBool>`pt.deleted_at is null`);
  return where;
}

/** Templates owned by these areas (the visibility rule; never empty). */
export function ownedByAreas(ids: string[]): Condition {
  return sql<SqlBool>`pt.owned_by_area_id in (${sql.join(ids)})`;
}

export async function areasOf(
  db: Kysely<DB>,
  workspaceId: string,
  templateIds: string[],
): Promise<Map<string, string[]>> {
  if (templateIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('project_template_areas')
    .select(['template_id', 'group_id'])
    .where('workspace_id', '=', workspaceId)
    .where('template_id', 'in', templateIds)
    .orderBy('template_id')
    .orderBy('position')
    .execute();
  return groupBy(
    rows,
    (r) => r.template_id,
    (r) => r.group_id,
  );
}

export async function replaceAreas(
  db: Kysely<DB>,
  workspaceId: string,
  templateId: string,
  groupIds: string[],
) {
  await db
    .deleteFrom('project_template_areas')
    .where('workspace_id', '=', workspaceId)
    .where('template_id', '=', templateId)
    .execute();
  if (groupIds.length === 0) return;
  await db
    .insertInto('project_template_areas')
    .values(
      groupIds.map((group_id, position) => ({
        workspace_id: workspaceId,
        template_id: templateId,
        group_id,
        position,
      })),
    )
    .execute();
}
