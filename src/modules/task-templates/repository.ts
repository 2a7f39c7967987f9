import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { findByIds, findByRef } from '../../db/by-id.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import { groupBy } from '../../db/rows.ts';
import { updateIfLive } from '../../db/state.ts';
import type { DB, TaskTemplatesTable } from '../../db/types.ts';

export type TaskTemplateRow = Selectable<TaskTemplatesTable>;

const COLUMNS = [
  'tt.seq',
  'tt.workspace_id',
  'tt.id',
  'tt.public_id',
  'tt.name',
  'tt.description_html',
  'tt.description_markdown',
  'tt.priority',
  'tt.visibility',
  'tt.status_id',
  'tt.status_stage',
  'tt.assigned_to_id',
  'tt.project_id',
  'tt.group_id',
  'tt.scope_type',
  'tt.scope_id',
  'tt.parent_task_template_id',
  'tt.due_date',
  'tt.start_date',
  'tt.relative_date_count',
  'tt.relative_date_unit',
  'tt.relative_date_direction',
  'tt.relative_date_event_type',
  'tt.created_by_id',
  'tt.created_at',
  'tt.updated_at',
  'tt.deleted_at',
] as const;

const SOURCE = { from: 'task_templates as tt', columns: COLUMNS } as const;

export async function insertTemplate(
  db: Kysely<DB>,
  row: Omit<TaskTemplateRow, 'seq'>,
): Promise<TaskTemplateRow> {
  const { seq } = await db
    .insertInto('task_templates')
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
  changes: Partial<TaskTemplateRow>,
): Promise<boolean> {
  return updateIfLive(db, 'task_templates', workspaceId, id, changes);
}

export function findTemplate(
  db: Kysely<DB>,
  workspaceId: string,
  ref: { id: string } | { publicId: string },
  forUpdate = false,
): Promise<TaskTemplateRow | undefined> {
  return findByRef<TaskTemplateRow>(db, SOURCE, workspaceId, ref, forUpdate);
}

/** GET /v1/task-templates, and the templates a project or a parent makes: oldest first. */
export const TEMPLATE_LIST = tableListing(
  defineOrder<TaskTemplateRow>([
    { ref: 'tt.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 'tt.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('task_templates as tt').where('tt.workspace_id', '=', workspaceId),
  COLUMNS,
);

/** The filters of template lists, each a condition on TEMPLATE_LIST's rows. */
export interface TemplateFilter {
  areaId?: string;
  scope?: { type?: 'project_template'; id: string };
  projectId?: string;
  parentIds?: string[];
  /** Not deleted. */
  live?: boolean;
}

export function templateConditions(f: TemplateFilter): Condition[] {
  const where: Condition[] = [];
  if (f.areaId) where.push(sql<SqlBool>`tt.group_id = ${f.areaId}`);
  if (f.scope?.type) where.push(sql<SqlBool>`tt.scope_type = ${sql.lit(f.scope.type)}`);
  if (f.scope) where.push(sql<SqlBool>`tt.scope_id = ${f.scope.id}`);
  if (f.projectId) where.push(sql<SqlBool>`tt.project_id = ${f.projectId}`);
  if (f.parentIds) where.push(sql<SqlBool>`tt.parent_task_template_id in (${sql.join(f.parentIds)})`);
  if (f.live) where.push(sql<SqlBool>`tt.deleted_at is null`);
  return where;
}

/** Templates of these areas (the visibility rule; never empty). */
export function inAreas(ids: string[]): Condition {
  return sql<SqlBool>`tt.group_id in (${sql.join(ids)})`;
}

/** The templates of these ids (UUIDs), in one query. */
export function findTemplatesByIds(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
): Promise<TaskTemplateRow[]> {
  return findByIds<TaskTemplateRow>(db, SOURCE, workspaceId, ids);
}

export async function hasChildren(db: Kysely<DB>, workspaceId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('task_templates')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('parent_task_template_id', '=', id)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Label ids of each template, in their order. */
export async function labelIdsOf(
  db: Kysely<DB>,
  workspaceId: string,
  templateIds: string[],
): Promise<Map<string, string[]>> {
  if (templateIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('task_template_labels')
    .select(['template_id', 'label_id'])
    .where('workspace_id', '=', workspaceId)
    .where('template_id', 'in', templateIds)
    .orderBy('template_id')
    .orderBy('position')
    .execute();
  return groupBy(
    rows,
    (r) => r.template_id,
    (r) => r.label_id,
  );
}

export async function replaceLabels(
  db: Kysely<DB>,
  workspaceId: string,
  templateId: string,
  labelIds: string[],
) {
  await db
    .deleteFrom('task_template_labels')
    .where('workspace_id', '=', workspaceId)
    .where('template_id', '=', templateId)
    .execute();
  if (labelIds.length === 0) return;
  await db
    .insertInto('task_template_labels')
    .values(
      labelIds.map((label_id, position) => ({
        workspace_id: workspaceId,
        template_id: templateId,
        label_id,
        position,
      })),
    )
    .execute();
}
