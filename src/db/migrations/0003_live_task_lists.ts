// Lists of live tasks filtered by team or project (the busiest filters of GET /v1/tasks/search) answer
// their page and their exact total from the index alone. With only (workspace_id, group_id, seq), the
// total `count(*) … where group_id = ? and deleted_at is null` read every row of the team to test
// deleted_at (90–190 ms for 40,000 tasks on SQLite); with deleted_at in the index the count is a range
// of index entries, and the page is the same range in seq order. The existing indexes stay for
// includeDeleted, whose rows are not contiguous in these.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements } from './ddl.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const text = `
    create index tasks_live_by_group on tasks (workspace_id, group_id, deleted_at, seq);
    create index tasks_live_by_project on tasks (workspace_id, project_id, deleted_at, seq);
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
}
