// PostgreSQL keeps each task's words a second time, in the order a search walks them (`task_terms`,
// `task_words`: migration 0011, docs/search.md), through statement triggers on `tasks`. An import's
// COPY of the tasks fires the insert trigger once for all of them, and it finds each of some twenty
// words per task by an index probe and inserts it into the primary key's B-tree in no order: 12 s of
// a 100,000-task import's 16. Into a database without tasks (the move to a new database), the import
// instead turns the trigger off, leaves the words table without its key, and fills both tables once
// at the end from every task's vectors, as the migration did: the terms grouped, the words by a hash
// join, the key built by one sort (4–5 s). Everything happens in the import's transaction, so a
// rollback puts the trigger and the key back with the rest. Into a database that already has tasks,
// the trigger does the work as for any write.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/types.ts';
import type { Deferred } from './deferred.ts';

/**
 * The (code, field, word, live, seq) entries of every task (field 0 the name, 1 the description; live:
 * not deleted, migration 0019). The workspace's code comes by a join: as a sub-select in the list, as
 * the triggers have it, it ran once per entry (two million for 100,000 tasks, 2 s of the 5.6 s fill).
 */
const ENTRIES = `select w.code, f.field, f.word, r.deleted_at is null as live, r.seq
  from tasks r
  join workspaces w on w.id = r.workspace_id
  cross join lateral (
    select 0::smallint, unnest(tsvector_to_array(r.name_tsv))
    union all
    select 1::smallint, unnest(tsvector_to_array(r.description_tsv))
  ) f (field, word)`;

// Terms only grow, so some may be here already (a database whose tasks were all removed).
const FILL_TERMS = `insert into task_terms (workspace_code, field, word)
  select e.code, e.field, e.word from (${ENTRIES}) e group by 1, 2, 3 order by 1, 2, 3
  on conflict do nothing`;

const FILL_WORDS = `insert into task_words (term, live, seq)
  select t.id, e.live, e.seq from (${ENTRIES}) e
  join task_terms t on t.workspace_code = e.code and t.field = e.field and t.word = e.word`;

const NOTHING: Deferred = { what: null, finish: async () => {} };

/**
 * PostgreSQL, no tasks yet: turns the words trigger off and drops the words table's key; `finish`
 * fills the words of every task and puts both back. Otherwise nothing.
 */
export async function deferTaskWords(db: Kysely<DB>, dialect: Dialect): Promise<Deferred> {
  if (dialect !== 'postgres') return NOTHING;
  const { rows } = await sql<{ name: string; definition: string; empty: boolean }>`select k.conname as name,
      pg_get_constraintdef(k.oid) as definition,
      not exists (select 1 from tasks) and not exists (select 1 from task_words) as empty
    from pg_constraint k where k.conrelid = to_regclass('task_words') and k.contype = 'p'`.execute(db);
  const key = rows[0];
  if (!key?.empty) return NOTHING;
  const name = sql.id(key.name);
  await sql`alter table tasks disable trigger task_words_insert`.execute(db);
  await sql`alter table task_words drop constraint ${name}`.execute(db);
  const finish = async () => {
    // The key's sort in memory (the default, 64 MB, spills 100,000 tasks' two million words to disk).
    await sql`set local maintenance_work_mem = '256MB'`.execute(db);
    await sql.raw(FILL_TERMS).execute(db);
    // Without statistics the planner takes the terms for the empty table they were, and joins each
    // of the words to them by a scan of them all.
    await sql`analyze task_terms`.execute(db);
    await sql.raw(FILL_WORDS).execute(db);
    await sql`alter table task_words add constraint ${name} ${sql.raw(key.definition)}`.execute(db);
    await sql`alter table tasks enable trigger task_words_insert`.execute(db);
  };
  return { what: "filling the task search's words tables", finish };
}
