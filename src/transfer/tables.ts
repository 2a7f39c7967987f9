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
import type { DB } from '../db/types.ts';
import { RESOURCES } from '../modules/registry.ts';
import type { TableSpec } from '../modules/resource.ts';

export type { TableSpec } from '../modules/resource.ts';

/** The format's own version: bumped only when the shape of the file (not the schema) changes. */
export const FORMAT = 'cairn-export';
export const FORMAT_VERSION = 1;

/** The tables of the registry's resources (modules/registry.ts), each declared by its module. */
const OF_RESOURCES = new Map(RESOURCES.flatMap((r) => r.tables).map((t) => [t.name, t]));

/**
 * Every table in an order in which each row's references come before it: the tables of no resource
 * with their specs, and those of resources by name, in the place their references need. A resource
 * whose tables are not named here (a new one) comes after every other resource, before the events,
 * in registry order: a new table refers only to older ones.
 */
const ORDER: (TableSpec | keyof DB)[] = [
  { name: 'workspaces', order: ['id'] },
  'users',
  { name: 'api_tokens', order: ['id'] },
  // Signed-in browsers travel like API tokens: a move keeps people signed in.
  { name: 'sessions', order: ['id'] },
  // Invitations travel: a pending one's link still works after the move (its hash moves with it).
  { name: 'invitations', order: ['id'] },
  'groups',
  'group_members',
  'task_statuses',
  'task_labels',
  { name: 'collections', order: ['id'] },
  { name: 'project_statuses', order: ['id'] },
  { name: 'counters', order: ['name'] },
  'projects',
  'project_teams',
  'tasks',
  'task_label_links',
  'documents',
  'posts',
  'post_images',
  'post_reactions',
  'task_templates',
  'task_template_labels',
  'project_templates',
  'project_template_areas',
  { name: 'events', order: ['tx', 'seq'] },
  { name: 'webhook_subscriptions', order: ['seq'], dates: ['failing_since', 'lease_until'] },
  { name: 'webhook_deliveries', order: ['seq'], booleans: ['replay'] },
  { name: 'webhook_replays', order: ['seq'] },
];

function ordered(): TableSpec[] {
  const named = new Set(ORDER.filter((t) => typeof t === 'string'));
  const unnamed = [...OF_RESOURCES.values()].filter((t) => !named.has(t.name));
  const specs = ORDER.flatMap((t) => {
    if (typeof t !== 'string') return t.name === 'events' ? [...unnamed, t] : [t];
    const spec = OF_RESOURCES.get(t);
    if (!spec) throw new Error(`transfer/tables.ts names ${t}, which no resource of the registry declares`);
    return [spec];
  });
  return specs;
}

export const TABLES: readonly TableSpec[] = ordered();

/**
 * Tables that stay behind: this installation's own settings (the cursor secret: cursors of the old
 * database do not open on the new one), idempotency keys (a day's retry window, bound to the old
 * database's answers), one-time password links (an hour's life; a person asks again), and what the databases keep for themselves (migrations, search indexes).
 */
export const NOT_EXPORTED = [
  'instance_settings',
  'idempotency_keys',
  'password_tokens',
  'kysely_migration',
  'kysely_migration_lock',
  'tasks_fts_terms',
  'task_terms',
  'task_words',
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

const SPECS = new Map(TABLES.map((t) => [t.name, t]));

/** Columns stored as 0/1 on SQLite and boolean on PostgreSQL (each table's spec says). */
export function booleansOf(table: keyof DB): readonly string[] {
  return SPECS.get(table)?.booleans ?? [];
}

/** Timestamp columns not named `*_at` (each table's spec says). */
export function datesOf(table: keyof DB): readonly string[] {
  return SPECS.get(table)?.dates ?? [];
}
