// PostgreSQL: each task's words in the order of (word, seq), so that a text search walks only the
// matches of a word, newest first, wherever they are (docs/search.md). Walking the whole change order
// and testing each row's tsvector costs a row per task between two matches: after a burst of writes
// without the word, tens of thousands of rows per page (performance.md). GIN has no order to walk.
//
// task_words holds one row per (task, field, distinct word), keyed by the workspace's code (4 bytes
// rather than a 37-byte id in 20 million rows), the field (0 name, 1 description: the order of the
// tasks' TaggedTarget.fields) and the word, then seq: the rows of one word are a range of the key,
// already in the change order. Words compare in byte order ("C"), so a prefix is a key range too.
//
// Triggers keep it: the words are read back from the row's own tsvectors (our folded words, set by
// the same statement; PostgreSQL tokenizes nothing), after every insert, update and delete, once per
// statement (transition tables), so that every write path (single writes, batches, templates,
// seeding, import) keeps it without a line of its own. Every update of a task renumbers its seq, so
// each one moves the task's entries; PostgreSQL allows no column list on a trigger with transition
// tables anyway.
//
// SQLite needs none of it: its task index is FTS5 (fts5.ts), whose rowid is already the seq.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements } from './ddl.ts';

/** A task row's (code, field, word, seq) entries, from a transition table of tasks named `rows`. */
const ENTRIES = `
  select w.code, f.field, f.word, r.seq
  from rows r
  join workspaces w on w.id = r.workspace_id
  cross join lateral (
    select 0::smallint, unnest(tsvector_to_array(r.name_tsv))
    union all
    select 1::smallint, unnest(tsvector_to_array(r.description_tsv))
  ) f (field, word)`;

const entriesOf = (table: string) => ENTRIES.replace('from rows r', `from ${table} r`);

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  const text = `
    create table task_words (
      workspace_code integer not null,
      field smallint not null,
      word text collate "C" not null,
      seq bigint not null
    );
    insert into task_words ${entriesOf('tasks')};
    alter table task_words add primary key (workspace_code, field, word, seq);
    alter table task_words alter column word set statistics 1000;
    analyze task_words;
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
  // Function bodies hold semicolons, so they are not split.
  await sql
    .raw(`create function task_words_added() returns trigger language plpgsql as $$
      begin
        insert into task_words ${entriesOf('added')};
        return null;
      end $$`)
    .execute(db);
  await sql
    .raw(`create function task_words_removed() returns trigger language plpgsql as $$
      begin
        delete from task_words t using (${entriesOf('removed')}) o
        where t.workspace_code = o.code and t.field = o.field and t.word = o.word and t.seq = o.seq;
        return null;
      end $$`)
    .execute(db);
  await sql
    .raw(`create function task_words_changed() returns trigger language plpgsql as $$
      begin
        delete from task_words t using (${entriesOf('removed')}) o
        where t.workspace_code = o.code and t.field = o.field and t.word = o.word and t.seq = o.seq;
        insert into task_words ${entriesOf('added')};
        return null;
      end $$`)
    .execute(db);
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
