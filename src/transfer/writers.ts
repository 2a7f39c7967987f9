// How cairn import writes one table's rows: the interface both databases' writers share, and SQLite's.
// PostgreSQL's streams them through COPY (pg-copy.ts).
import { CompiledQuery, type Kysely } from 'kysely';
import type { SearchProvider } from '../db/search/index.ts';
import type { DB } from '../db/types.ts';
import type { TableSpec } from './tables.ts';

export type Row = Record<string, unknown>;

/** One table's rows of one workspace, in the file's order. */
export interface TableWriter {
  /** Takes a row whose values are as the database stores them; may write it later. */
  add(row: Row): Promise<void>;
  /** Writes what is left; after it, the table's rows are all in the database. */
  finish(): Promise<void>;
  /** Gives up: nothing more is written (the transaction is about to roll back). */
  abort(): Promise<void>;
}

/** What a writer is given: the table, its columns in the order values are sent, and the workspace. */
export interface TableTarget {
  table: TableSpec;
  columns: readonly string[];
  search: SearchProvider;
  workspaceCode: number;
}

/** SQLite allows 32,766 bound values a statement; fewer rows than that keep statements small. */
const MOST_VALUES = 32_000;
const MOST_ROWS = 500;

/** Statement texts by table and row count: each is compiled once (sqlite-driver.ts caches by text). */
const statements = new Map<string, string>();

function insertText(table: string, columns: readonly string[], rows: number, returning: boolean): string {
  const key = `${table} ${rows} ${returning}`;
  let text = statements.get(key);
  if (text === undefined) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    text =
      `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ` +
      Array.from({ length: rows }, () => tuple).join(', ') +
      (returning ? ' returning "id", "seq"' : '');
    statements.set(key, text);
  }
  return text;
}

/**
 * SQLite: rows go in as multi-row INSERTs of one prepared text per table (no query building per
 * batch), then their search index entries, which need each row's new seq.
 */
export class SqliteWriter implements TableWriter {
  readonly #trx: Kysely<DB>;
  readonly #target: TableTarget;
  readonly #batchRows: number;
  #batch: Row[] = [];

  constructor(trx: Kysely<DB>, target: TableTarget) {
    this.#trx = trx;
    this.#target = target;
    this.#batchRows = Math.max(1, Math.min(MOST_ROWS, Math.floor(MOST_VALUES / target.columns.length)));
  }

  async add(row: Row): Promise<void> {
    this.#batch.push(row);
    if (this.#batch.length >= this.#batchRows) await this.#flush();
  }

  async finish(): Promise<void> {
    await this.#flush();
  }

  async abort(): Promise<void> {
    this.#batch = [];
  }

  async #flush(): Promise<void> {
    const rows = this.#batch;
    if (rows.length === 0) return;
    this.#batch = [];
    const { table, columns, search, workspaceCode } = this.#target;
    const params: unknown[] = [];
    for (const row of rows) for (const column of columns) params.push(row[column]);
    const index = table.index;
    const text = insertText(table.name, columns, rows.length, index !== undefined);
    const made = await this.#trx.executeQuery<{ id: string; seq: number }>(CompiledQuery.raw(text, params));
    if (!index) return;
    const seqs = new Map(made.rows.map((r) => [r.id, Number(r.seq)]));
    for (const row of rows) row.seq = seqs.get(row.id as string);
    const ctx = { db: this.#trx, search, workspace: { code: workspaceCode } };
    await index.writeNew(ctx, rows as never[]);
  }
}

/**
 * Holds a table's rows until its end, then prepares each (a query per row) and writes them all: while
 * a COPY is open, its connection takes no other query. For the few rows that need one (subscriptions).
 */
export class HeldWriter implements TableWriter {
  readonly #make: () => TableWriter;
  readonly #prepare: (row: Row) => Promise<void>;
  #rows: Row[] = [];
  #writer: TableWriter | undefined;

  constructor(make: () => TableWriter, prepare: (row: Row) => Promise<void>) {
    this.#make = make;
    this.#prepare = prepare;
  }

  async add(row: Row): Promise<void> {
    this.#rows.push(row);
  }

  async finish(): Promise<void> {
    const rows = this.#rows;
    this.#rows = [];
    for (const row of rows) await this.#prepare(row);
    this.#writer = this.#make();
    for (const row of rows) await this.#writer.add(row);
    await this.#writer.finish();
  }

  async abort(): Promise<void> {
    this.#rows = [];
    await this.#writer?.abort();
  }
}
