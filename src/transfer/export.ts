// `cairn export`: a workspace (or all of them) as JSON Lines, read from one snapshot of the database so
// that a server may keep running meanwhile. The file is a header line, then each workspace's rows
// table by table (tables.ts), then an end line holding the row count: an importer that does not reach
// it knows the file was cut short.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import type { DB } from '../db/types.ts';
import {
  booleansOf,
  columnsOf,
  exportedColumns,
  FORMAT,
  FORMAT_VERSION,
  TABLES,
  type TableSpec,
} from './tables.ts';

const PAGE = 1000;

export interface ExportOptions {
  /** One workspace; all of them when absent. */
  workspaceId?: string;
  progress?: (line: string) => void;
}

export interface ExportResult {
  workspaces: number;
  rows: number;
  schema: string;
}

export interface Header {
  format: typeof FORMAT;
  version: number;
  schema: string;
  exportedAt: string;
  workspaces: string[];
}

/** The newest migration applied: the schema a file's rows are shaped by. */
export async function schemaVersion(db: Kysely<DB>): Promise<string> {
  const row = await sql<{
    name: string;
  }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  const name = row.rows[0]?.name;
  if (!name) throw new Error('the database has no schema yet: run cairn migrate first');
  return name;
}

export async function exportData(
  database: Database,
  out: Writable,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const progress = options.progress ?? (() => {});
  return database.db.connection().execute(async (conn) => {
    // One snapshot for the whole file. SQLite's deferred BEGIN reads the WAL snapshot of its first
    // read without holding the write lock; PostgreSQL's repeatable read does the same.
    await sql
      .raw(database.dialect === 'sqlite' ? 'begin' : 'begin isolation level repeatable read, read only')
      .execute(conn);
    try {
      const result = await writeAll(database, conn, out, options.workspaceId, progress);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

async function writeAll(
  database: Database,
  db: Kysely<DB>,
  out: Writable,
  workspaceId: string | undefined,
  progress: (line: string) => void,
): Promise<ExportResult> {
  const write = async (value: unknown) => {
    if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
  };
  const schema = await schemaVersion(db);
  let q = db.selectFrom('workspaces').select(['id', 'name']).orderBy('id');
  if (workspaceId) q = q.where('id', '=', workspaceId);
  const workspaces = await q.execute();
  if (workspaceId && workspaces.length === 0) throw new Error(`no workspace ${workspaceId}`);

  const header: Header = {
    format: FORMAT,
    version: FORMAT_VERSION,
    schema,
    exportedAt: new Date().toISOString(),
    workspaces: workspaces.map((w) => w.id),
  };
  await write(header);
  const columns = new Map<string, { stored: string[]; exported: string[] }>();
  for (const table of TABLES) {
    const stored = await columnsOf(db, database.dialect, table.name);
    columns.set(table.name, { stored, exported: exportedColumns(table.name, stored) });
  }

  let rows = 0;
  const started = Date.now();
  for (const ws of workspaces) {
    for (const table of TABLES) {
      const { stored, exported } = columns.get(table.name)!;
      let count = 0;
      for await (const page of pages(db, table, stored, ws.id)) {
        for (const row of page) {
          await write({ table: table.name, row: await present(database, db, table, exported, row) });
        }
        count += page.length;
      }
      rows += count;
      if (count > 0) progress(`export: ${ws.name}: ${table.name} ${count.toLocaleString('en')} rows`);
    }
  }
  await write({ end: true, rows });
  const seconds = (Date.now() - started) / 1000;
  progress(
    `export: ${rows.toLocaleString('en')} rows of ${workspaces.length} workspace(s) in ${seconds.toFixed(1)} s`,
  );
  return { workspaces: workspaces.length, rows, schema };
}

/** A workspace's rows of one table, a page at a time, in the table's order (a keyset walk). */
async function* pages(
  db: Kysely<DB>,
  table: TableSpec,
  stored: string[],
  workspaceId: string,
): AsyncGenerator<Record<string, unknown>[]> {
  const selected = stored.filter((c) => !c.endsWith('_tsv'));
  const scope = table.name === 'workspaces' ? sql`id = ${workspaceId}` : sql`workspace_id = ${workspaceId}`;
  const order = sql.join(table.order.map((c) => sql.ref(c)));
  let last: unknown[] | undefined;
  for (;;) {
    const after: RawBuilder<unknown> = last
      ? sql`and (${order}) > (${sql.join(last.map((v) => sql`${v}`))})`
      : sql``;
    const result = await sql<Record<string, unknown>>`select ${sql.join(selected.map((c) => sql.ref(c)))}
      from ${sql.table(table.name)} where ${scope} ${after} order by ${order} limit ${PAGE}`.execute(db);
    if (result.rows.length === 0) return;
    yield result.rows;
    if (result.rows.length < PAGE) return;
    const end = result.rows[result.rows.length - 1]!;
    last = table.order.map((c) => end[c]);
  }
}

/** A stored row as the file holds it (tables.ts): booleans, no row numbers, the cursor as an event id. */
async function present(
  database: Database,
  db: Kysely<DB>,
  table: TableSpec,
  exported: string[],
  row: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const booleans = booleansOf(table.name);
  const out: Record<string, unknown> = {};
  for (const column of exported) {
    if (column === 'cursor_event_id') {
      out[column] = await lastEventAtOrBefore(database, db, row);
    } else if (column === 'lease_owner' || column === 'lease_until') {
      out[column] = null;
    } else if (booleans.includes(column)) {
      out[column] = row[column] === null ? null : Boolean(row[column]);
    } else {
      out[column] = row[column] ?? null;
    }
  }
  return out;
}

/** The id of the last event a subscription has passed, or null when it has passed none still kept. */
async function lastEventAtOrBefore(
  database: Database,
  db: Kysely<DB>,
  subscription: Record<string, unknown>,
): Promise<string | null> {
  const tx = Number(subscription.cursor_tx);
  const seq = Number(subscription.cursor_seq);
  const upTo =
    database.dialect === 'postgres' ? sql`(tx, seq) <= (${tx}, ${seq})` : sql`tx = 0 and seq <= ${seq}`;
  const found = await sql<{ id: string }>`select id from events
    where workspace_id = ${subscription.workspace_id} and ${upTo}
    order by tx desc, seq desc limit 1`.execute(db);
  return found.rows[0]?.id ?? null;
}
