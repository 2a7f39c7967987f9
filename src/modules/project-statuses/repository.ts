import type { Kysely, Selectable } from 'kysely';
import type { DB, ProjectStatusesTable } from '../../db/types.ts';
import type { RowKind } from '../../preconditions.ts';

export type ProjectStatusRow = Selectable<ProjectStatusesTable>;

export async function insertStatuses(db: Kysely<DB>, rows: ProjectStatusRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('project_statuses').values(rows).execute();
}

/** Statuses by id (db/by-id.ts, preconditions.ts loadById). */
export const STATUSES: RowKind<ProjectStatusRow> = {
  from: 'project_statuses',
  name: 'project status',
  version: (r) => r.updated_at,
};

export function findStatuses(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
): Promise<ProjectStatusRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('project_statuses')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

export function listStatuses(db: Kysely<DB>, workspaceId: string): Promise<ProjectStatusRow[]> {
  return db
    .selectFrom('project_statuses')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function nextPosition(db: Kysely<DB>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('project_statuses')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return (row?.max ?? -1) + 1;
}

export async function updateStatus(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<ProjectStatusRow>,
): Promise<void> {
  await db
    .updateTable('project_statuses')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}
