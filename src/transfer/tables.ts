// What `cairn export` writes and `cairn import` reads: every table of a workspace, in an order in which
// each row's references come before it. Like the migrations, this is the one place that knows every
// table; a test fails when a table is added and left out of both lists below.
//
// Rows travel as they are stored, with three exceptions, so that an export reads the same from either
// database (docs/deployment.md "Moving data"):
// - row numbers (`seq`, and the events' `tx`) stay behind: the importing database numbers rows anew,
//   in the exported order, so every order built on them (recency of tasks, the event stream) holds;
// - booleans are true/false (SQLite stores 0/1), and PostgreSQL's `*_tsv` search columns are not
//   written: search indexes are rebuilt on import;
// - a subscription's place in the stream is the id of the last event it has passed
//   (`cursor_event_id`) instead of a (tx, seq) pair that means nothing in another database, and its
//   delivery lease (held by a process of the old database) is dropped.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import { SEARCH_TARGETS, type SearchIndex, type TaggedSearchIndex } from '../db/search/index.ts';
import type { DB } from '../db/types.ts';
import { DOCUMENT_INDEX } from '../modules/documents/service.ts';
import { GROUP_INDEX } from '../modules/groups/service.ts';
import { PROJECT_INDEX } from '../modules/projects/service.ts';
import { TASK_INDEX } from '../modules/tasks/repository.ts';
import { USER_INDEX } from '../modules/users/service.ts';

/** The format's own version: bumped only when the shape of the file (not the schema) changes. */
export const FORMAT = 'cairn-export';
export const FORMAT_VERSION = 1;

export interface TableSpec {
  name: keyof DB;
  /** Columns that order the rows (unique within a workspace): the export's order and its keyset. */
  order: string[];
  /** Its search index, rebuilt from the imported rows. */
  index?: SearchIndex<never>;
  /** Tasks: the part of their index entry their INSERT sets (PostgreSQL's tsvector columns). */
  rowIndex?: TaggedSearchIndex<never>;
}

export const TABLES: readonly TableSpec[] = [
  { name: 'workspaces', order: ['id'] },
  { name: 'users', order: ['seq'], index: USER_INDEX as SearchIndex<never> },
  { name: 'api_tokens', order: ['id'] },
  { name: 'groups', order: ['seq'], index: GROUP_INDEX as SearchIndex<never> },
  { name: 'group_members', order: ['group_id', 'user_id'] },
  { name: 'task_statuses', order: ['id'] },
  { name: 'task_labels', order: ['id'] },
  { name: 'collections', order: ['id'] },
  { name: 'project_statuses', order: ['id'] },
  { name: 'counters', order: ['name'] },
  { name: 'projects', order: ['seq'], index: PROJECT_INDEX as SearchIndex<never> },
  { name: 'project_teams', order: ['project_id', 'group_id'] },
  {
    name: 'tasks',
    order: ['seq'],
    index: TASK_INDEX as unknown as SearchIndex<never>,
    rowIndex: TASK_INDEX as unknown as TaggedSearchIndex<never>,
  },
  { name: 'task_label_links', order: ['task_id', 'label_id'] },
  { name: 'documents', order: ['seq'], index: DOCUMENT_INDEX as SearchIndex<never> },
  { name: 'posts', order: ['seq'] },
  { name: 'post_images', order: ['id'] },
  { name: 'post_reactions', order: ['id'] },
  { name: 'task_templates', order: ['seq'] },
  { name: 'task_template_labels', order: ['template_id', 'label_id'] },
  { name: 'project_templates', order: ['seq'] },
  { name: 'project_template_areas', order: ['template_id', 'group_id'] },
  { name: 'events', order: ['tx', 'seq'] },
  { name: 'webhook_subscriptions', order: ['seq'] },
  { name: 'webhook_deliveries', order: ['seq'] },
  { name: 'webhook_replays', order: ['seq'] },
];

/**
 * Tables that stay behind: this installation's own settings (the cursor secret: cursors of the old
 * database do not open on the new one), idempotency keys (a day's retry window, bound to the old
 * database's answers), and what the databases keep for themselves (migrations, search indexes).
 */
export const NOT_EXPORTED = [
  'instance_settings',
  'idempotency_keys',
  'kysely_migration',
  'kysely_migration_lock',
  'tasks_fts_terms',
];

/** Every table of the database (search-index tables of SQLite's FTS5 included). */
export async function tablesOf(db: Kysely<DB>, dialect: Dialect): Promise<string[]> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_schema where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema()`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

/** A table's columns as the database has them, in their order. */
export async function columnsOf(db: Kysely<DB>, dialect: Dialect, table: string): Promise<string[]> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
      : await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(
          db,
        );
  return rows.rows.map((r) => r.name);
}

/** Columns of one table that travel, in the file's (alphabetical) order. */
export function exportedColumns(table: string, stored: string[]): string[] {
  const kept = stored.filter((c) => c !== 'seq' && c !== 'tx' && !c.endsWith('_tsv'));
  const columns =
    table === 'webhook_subscriptions'
      ? [...kept.filter((c) => c !== 'cursor_tx' && c !== 'cursor_seq'), 'cursor_event_id']
      : kept;
  return columns.sort();
}

/** Columns stored as 0/1 on SQLite and boolean on PostgreSQL. */
const BOOLEANS: Partial<Record<keyof DB, readonly string[]>> = {
  tasks: ['priority'],
  task_templates: ['priority'],
  posts: ['is_resolved'],
  webhook_deliveries: ['replay'],
};

export function booleansOf(table: keyof DB): readonly string[] {
  return BOOLEANS[table] ?? [];
}

/** Tables whose rows are searched (and must be indexed after import). */
export const SEARCHED = new Set<string>(Object.values(SEARCH_TARGETS).map((t) => t.table));
