// PostgreSQL keeps each task's words a second time (`task_terms`, `task_words`: migrations 0011 and
// 0019, whose `live` says the task is not deleted); this compares them with the words of every task's
// own tsvectors and its state, which are what they must hold.
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.ts';

/** Words the vectors hold and the table lacks, words it holds that no vector has, and how many it holds. */
export async function taskWordsAgainstVectors(
  db: Kysely<DB>,
): Promise<{ missing: number; extra: number; stored: number }> {
  const { rows } = await sql<{ missing: number; extra: number; stored: number }>`with expected as (
      select w.code, f.field, f.word, t.deleted_at is null as live, t.seq from tasks t join workspaces w on w.id = t.workspace_id
      cross join lateral (select 0::smallint, unnest(tsvector_to_array(t.name_tsv)) union all
        select 1::smallint, unnest(tsvector_to_array(t.description_tsv))) f (field, word))
    , stored as (select t.workspace_code, t.field, t.word, w.live, w.seq from task_words w join task_terms t on t.id = w.term)
    select (select count(*) from (select * from expected except select * from stored) m)::int as missing,
      (select count(*) from (select * from stored except select * from expected) x)::int as extra,
      (select count(*) from stored)::int as stored`.execute(db);
  return rows[0]!;
}
