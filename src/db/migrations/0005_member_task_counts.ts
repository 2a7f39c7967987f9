// What a member's list by team or project needs to answer its total without counting every task there
// (tasks/search.ts, countedTotal): a member does not see others' private tasks, nor tasks of teams
// hidden from them, so their total is the team's or project's counter less those.
// - Counters of live tasks per (team, project) pair: a project's tasks in the teams hidden from the
//   caller are a few counter rows.
// - Partial indexes of live private tasks (3 % of tasks in the bench's seed), holding every column the
//   count tests: counting the private tasks that are not the caller's reads a few index entries, never
//   the table. Queries must spell the predicate out literally (`visibility = 'private'`, not a
//   parameter) for either database to use them. visibility and deleted_at are also columns, though
//   constant here: SQLite, without statistics, picks the index matching the most equality terms, and
//   must prefer this one to (workspace_id, group_id, deleted_at, seq).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements } from './ddl.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const text = `
    create index tasks_private_by_group
      on tasks (workspace_id, group_id, visibility, deleted_at, created_by_id, assigned_to_id)
      where visibility = 'private' and deleted_at is null;
    create index tasks_private_by_project
      on tasks (workspace_id, project_id, visibility, deleted_at, group_id, created_by_id, assigned_to_id)
      where visibility = 'private' and deleted_at is null;
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
  await sql`insert into counters (workspace_id, name, value)
    select workspace_id, 'tasks.team.' || group_id || '.project.' || project_id, count(*) from tasks
      where deleted_at is null and project_id is not null group by workspace_id, group_id, project_id`.execute(
    db,
  );
}
