// PostgreSQL: each row of `task_words` (migration 0011) says whether its task is live (not deleted),
// and the key puts the live rows of a term together: `(term, live, seq)`. A search of live tasks (every
// search but `includeDeleted`) walks and counts one range of the key, and an owner's, which tests
// nothing else of the task, never reads the task at all: the count of a common word's first 1,001
// matches had been an index probe of the task for each (4 µs a match, most of the search's time).
// A deleted task's rows stay, under `live = false`, for the searches that include it.
//
// Every update of a task renumbers its seq, so the triggers already take its rows out and put them
// back on every change, a delete and a restore included: they now write `live` as they do. The table
// is rebuilt rather than altered so that the flag sits in the padding between the two integers: the
// rows and the key's entries stay the size they were.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements } from './ddl.ts';

/** The (code, field, word, live, seq) entries of the tasks of `table` (the table, or a transition table). */
function entriesOf(table: string): string {
  return `select (select w.code from workspaces w where w.id = r.workspace_id) as code, f.field, f.word,
      r.deleted_at is null as live, r.seq
    from ${table} r
    cross join lateral (
      select 0::smallint, unnest(tsvector_to_array(r.name_tsv))
      union all
      select 1::smallint, unnest(tsvector_to_array(r.description_tsv))
    ) f (field, word)`;
}

const TERM_OF = `(select t.id from task_terms t
  where t.workspace_code = e.code and t.field = e.field and t.word = e.word)`;

function add(table: string): string {
  return `insert into task_terms (workspace_code, field, word)
      select distinct e.code, e.field, e.word from (${entriesOf(table)}) e
      where ${TERM_OF} is null
      order by 1, 2, 3
      on conflict do nothing;
    insert into task_words (term, live, seq) select ${TERM_OF}, e.live, e.seq from (${entriesOf(table)}) e;`;
}

function remove(table: string): string {
  return `delete from task_words w using (select ${TERM_OF} as term, e.live, e.seq from (${entriesOf(table)}) e) o
    where w.term = o.term and w.live = o.live and w.seq = o.seq;`;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  // A term belongs to one workspace, and a seq to one task of it.
  const text = `
    set local maintenance_work_mem = '256MB';
    create table task_words_next (
      term integer not null,
      live boolean not null,
      seq bigint not null
    );
    insert into task_words_next (term, live, seq)
      select w.term, t.deleted_at is null, w.seq from task_words w
      join task_terms tt on tt.id = w.term
      join workspaces ws on ws.code = tt.workspace_code
      join tasks t on t.workspace_id = ws.id and t.seq = w.seq;
    drop table task_words;
    alter table task_words_next rename to task_words;
    alter table task_words add constraint task_words_pkey primary key (term, live, seq);
    analyze task_words
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
  // The triggers of migration 0011 call these by name; function bodies hold semicolons, so they are
  // not split.
  const functions = {
    added: add('added'),
    removed: remove('removed'),
    changed: remove('removed') + add('added'),
  };
  for (const [name, work] of Object.entries(functions)) {
    await sql
      .raw(`create or replace function task_words_${name}() returns trigger language plpgsql as $$
        begin
          ${work}
          return null;
        end $$`)
      .execute(db);
  }
}
