// Lists of live tasks in an order that needs no statistics to be chosen. The indexes of 0002 and 0003
// were (workspace_id, [group_id | project_id,] deleted_at, seq): SQLite takes `deleted_at is null` as
// an equality and walks them in seq order, but PostgreSQL does not, so without statistics (right after
// a bulk load, before autovacuum has analyzed) it read every live entry of a project and sorted them
// to return 51 (11 lists/s for a project of 100,000 tasks). Partial indexes of the live tasks, in the
// equalities and then seq, give both databases the same walk: the page stops after limit + 1 entries,
// and a count of live tasks in a team or project is a range of the index alone. The queries spell
// `deleted_at is null` literally, which is how both databases match a partial index.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements } from './ddl.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const text = `
    drop index tasks_live_by_seq;
    drop index tasks_live_by_group;
    drop index tasks_live_by_project;
    create index tasks_live_by_seq on tasks (workspace_id, seq) where deleted_at is null;
    create index tasks_live_by_group on tasks (workspace_id, group_id, seq) where deleted_at is null;
    create index tasks_live_by_project on tasks (workspace_id, project_id, seq) where deleted_at is null;
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
}
