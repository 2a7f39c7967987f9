// PostgreSQL: each task's words in the order of (word, seq), so that a text search walks only the
// matches of a word, newest first, wherever they are (docs/search.md). Walking the whole change order
// and testing each row's tsvector costs a row per task between two matches: after a burst of writes
// without the word, tens of thousands of rows per page (performance.md). GIN has no order to walk.
//
// - task_terms: every word ever indexed, per workspace (by its code) and field (0 name, 1
//   description: the order of the tasks' TaggedTarget.fields), numbered. Words compare in byte order
//   ("C"), so the words a query prefix expands to are a range of its key, as in SQLite's
//   tasks_fts_terms. Like that table it only grows: a word no task holds any more walks no rows.
// - task_words: one row per (term, seq) of every task: a term's rows are a range of the key, already
//   in the change order. Two integers rather than (code, field, word, seq): the table has some twenty
//   rows per task, and integer keys sort three times faster when this migration builds the index.
//
// Triggers keep them: the words are read back from the row's own tsvectors (our folded words, set by
// the same statement; PostgreSQL tokenizes nothing), after every insert, update and delete, once per
// statement (transition tables), so that every write path (single writes, batches, templates,
// seeding, import) keeps them without a line of its own. Every update of a task renumbers its seq, so
// each one moves the task's rows; PostgreSQL allows no column list on a trigger with transition
// tables anyway. New terms are added in key order (two writers adding the same new words lock them in
// one order) and only when missing; a concurrent writer's new term is waited for by ON CONFLICT, and
// the next statement, with a snapshot of its own, sees it.
//
// SQLite needs none of it: its task index is FTS5 (fts5.ts), whose rowid is already the seq.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements } from './ddl.ts';

/** The (code, field, word, seq) entries of the tasks of `table` (the table, or a transition table). */
function entriesOf(table: string): string {
  return `select (select w.code from workspaces w where w.id = r.workspace_id) as code, f.field, f.word, r.seq
    from ${table} r
    cross join lateral (
      select 0::smallint, unnest(tsvector_to_array(r.name_tsv))
      union all
      select 1::smallint, unnest(tsvector_to_array(r.description_tsv))
    ) f (field, word)`;
}

// An entry's term, looked up by its key, one index probe per entry (a scalar subquery, so that no
// plan reads the whole terms table to join a few rows).
const TERM_OF = `(select t.id from task_terms t
  where t.workspace_code = e.code and t.field = e.field and t.word = e.word)`;

/** Adds the words of `table`'s tasks: their missing terms, then a row per (term, seq). */
function add(table: string): string {
  return `insert into task_terms (workspace_code, field, word)
      select distinct e.code, e.field, e.word from (${entriesOf(table)}) e
      where ${TERM_OF} is null
      order by 1, 2, 3
      on conflict do nothing;
    insert into task_words (term, seq) select ${TERM_OF}, e.seq from (${entriesOf(table)}) e;`;
}

function remove(table: string): string {
  return `delete from task_words w using (select ${TERM_OF} as term, e.seq from (${entriesOf(table)}) e) o
    where w.term = o.term and w.seq = o.seq;`;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  const text = `
    create table task_terms (
      id integer generated always as identity primary key,
      workspace_code integer not null,
      field smallint not null,
      word text collate "C" not null,
      unique (workspace_code, field, word)
    );
    create table task_words (
      term integer not null,
      seq bigint not null
    );
    insert into task_terms (workspace_code, field, word)
      select e.code, e.field, e.word from (${entriesOf('tasks')}) e group by 1, 2, 3;
    insert into task_words (term, seq)
      select t.id, e.seq from (${entriesOf('tasks')}) e
      join task_terms t on t.workspace_code = e.code and t.field = e.field and t.word = e.word;
    alter table task_words add primary key (term, seq);
    analyze task_terms;
    analyze task_words
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
  // Function bodies hold semicolons, so they are not split.
  const functions = {
    added: add('added'),
    removed: remove('removed'),
    changed: remove('removed') + add('added'),
  };
  for (const [name, work] of Object.entries(functions)) {
    await sql
      .raw(`create function task_words_${name}() returns trigger language plpgsql as $$
        begin
          ${work}
          return null;
        end $$`)
      .execute(db);
  }
  const triggers = `
    create trigger task_words_insert after insert on tasks
      referencing new table as added for each statement execute function task_words_added();
    create trigger task_words_update after update on tasks
      referencing old table as removed new table as added
      for each statement execute function task_words_changed();
    create trigger task_words_delete after delete on tasks
      referencing old table as removed for each statement execute function task_words_removed()
  `;
  for (const statement of statements(triggers)) await sql.raw(statement).execute(db);
}
