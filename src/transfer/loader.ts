// cairn import's rows, one at a time: every one checked (values.ts), in its workspace's part of the
// file and in table order, shaped as this database stores it, and handed to its table's writer
// (writers.ts for SQLite, pg-copy.ts for PostgreSQL's COPY).
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/index.ts';
import type { DB } from '../db/types.ts';
import { positionOf, START } from '../events/stream.ts';
import { nextCode } from '../modules/workspaces/repository.ts';
import type { Header } from './export.ts';
import { CopyWriter } from './pg-copy.ts';
import { TABLES, type TableSpec } from './tables.ts';
import { type ColumnRule, rowProblem } from './values.ts';
import { HeldWriter, type Row, SqliteWriter, type TableWriter } from './writers.ts';

export class ImportError extends Error {}

const ORDER = new Map(TABLES.map((t, i) => [t.name as string, i]));

/** The columns a table's rows are written with: the file's, but a subscription's place as (tx, seq). */
function storedColumns(table: TableSpec, rules: Map<string, ColumnRule>): string[] {
  const columns = [...rules.keys()];
  return table.name === 'webhook_subscriptions'
    ? [...columns.filter((c) => c !== 'cursor_event_id'), 'cursor_tx', 'cursor_seq']
    : columns;
}

/** Takes the file's rows one by one and writes them table by table. */
export class Loader {
  readonly imported: string[] = [];
  readonly skipped: string[] = [];
  /** Row lines read; rows written. */
  seen = 0;
  written = 0;
  #workspace: { id: string; code: number; name: string; skip: boolean } | undefined;
  #table: TableSpec | undefined;
  #writer: TableWriter | undefined;
  #tableRows = 0;
  readonly #database: Database;
  readonly #trx: Kysely<DB>;
  /** PostgreSQL: the transaction's own client, for COPY. */
  readonly #client: pg.PoolClient | undefined;
  readonly #progress: (line: string) => void;
  readonly #rules: Map<string, Map<string, ColumnRule>>;

  constructor(
    database: Database,
    trx: Kysely<DB>,
    client: pg.PoolClient | undefined,
    progress: (line: string) => void,
    rules: Map<string, Map<string, ColumnRule>>,
  ) {
    this.#database = database;
    this.#trx = trx;
    this.#client = client;
    this.#progress = progress;
    this.#rules = rules;
  }

  async add(lineNo: number, tableName: unknown, row: unknown): Promise<void> {
    const at = ORDER.get(typeof tableName === 'string' ? tableName : '');
    if (at === undefined || typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new ImportError(`line ${lineNo}: not a row of a known table`);
    }
    this.seen += 1;
    const table = TABLES[at]!;
    const values = row as Row;
    // Every row is checked, a skipped workspace's too: a file is taken whole or not at all.
    const problem = rowProblem(this.#rules.get(table.name)!, values);
    if (problem) throw new ImportError(`line ${lineNo}: ${table.name}.${problem}`);
    if (table.name === 'workspaces') {
      await this.#finish();
      await this.#startWorkspace(values);
    } else {
      if (!this.#workspace || values.workspace_id !== this.#workspace.id) {
        throw new ImportError(`line ${lineNo}: a ${table.name} row outside its workspace's part of the file`);
      }
      if (this.#table && at < ORDER.get(this.#table.name)!) {
        throw new ImportError(`line ${lineNo}: ${table.name} after ${this.#table.name}, out of order`);
      }
    }
    if (this.#workspace?.skip) return;
    if (this.#table !== table) {
      await this.#finish();
      this.#start(table);
    }
    await this.#writer!.add(values);
    this.written += 1;
    this.#tableRows += 1;
    if (this.#tableRows % 50_000 === 0) {
      this.#progress(
        `import: ${this.#workspace!.name}: ${table.name} ${this.#tableRows.toLocaleString('en')} rows…`,
      );
    }
  }

  /** The end line: the rows it counts and the workspaces the header names must be those the file held. */
  async end(rows: unknown, header: Header): Promise<void> {
    await this.#finish();
    if (rows !== this.seen) {
      throw new ImportError(`the end line counts ${rows} rows, the file holds ${this.seen}`);
    }
    const held = [...this.imported, ...this.skipped].sort().join();
    if (held !== [...(header.workspaces ?? [])].sort().join()) {
      throw new ImportError('the workspaces in the file are not the ones its header names');
    }
  }

  /** Stops the table being written (the import failed): a COPY in progress is ended. */
  async abort(): Promise<void> {
    const writer = this.#writer;
    this.#writer = undefined;
    await writer?.abort();
  }

  #start(table: TableSpec): void {
    this.#table = table;
    this.#tableRows = 0;
    const target = {
      table,
      columns: storedColumns(table, this.#rules.get(table.name)!),
      search: this.#database.search,
      workspaceCode: this.#workspace!.code,
    };
    const client = this.#client;
    const make = () => (client ? new CopyWriter(client, target) : new SqliteWriter(this.#trx, target));
    this.#writer =
      table.name === 'webhook_subscriptions'
        ? new HeldWriter(make, (row) => this.#placeSubscription(row))
        : make();
  }

  /** Writes what the current table holds, and reports it. */
  async #finish(): Promise<void> {
    const writer = this.#writer;
    const table = this.#table;
    this.#writer = undefined;
    this.#table = undefined;
    if (!writer || !table) return;
    try {
      await writer.finish();
    } catch (error) {
      await writer.abort();
      if (error instanceof ImportError) throw error;
      throw new ImportError(`${table.name} of ${this.#workspace?.name}: ${(error as Error).message}`);
    }
    if (this.#tableRows > 0) {
      this.#progress(
        `import: ${this.#workspace?.name}: ${table.name} ${this.#tableRows.toLocaleString('en')} rows`,
      );
    }
  }

  async #startWorkspace(row: Row): Promise<void> {
    const id = String(row.id);
    const name = String(row.name);
    const present = await this.#trx
      .selectFrom('workspaces')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (present) {
      this.skipped.push(id);
      this.#workspace = { id, code: 0, name, skip: true };
      this.#progress(`import: ${name} (${id}) is already in this database: skipped`);
      return;
    }
    // A workspace's code prefixes its words in SQLite's task index; another workspace may hold it here.
    let code = Number(row.code);
    const taken = await this.#trx
      .selectFrom('workspaces')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirst();
    if (taken) {
      code = await nextCode(this.#trx);
      row.code = code;
    }
    this.imported.push(id);
    this.#workspace = { id, code, name, skip: false };
  }

  /**
   * A subscription's place in the stream, from the id of the last event it passed. Its events came
   * earlier in the file, so they have their places in this database already; its lease stays behind.
   */
  async #placeSubscription(row: Row): Promise<void> {
    const eventId = row.cursor_event_id;
    const at =
      typeof eventId === 'string' ? await positionOf(this.#trx, String(row.workspace_id), eventId) : START;
    if (!at) {
      throw new ImportError(
        `subscription ${row.id} has passed event ${eventId}, which the file does not hold`,
      );
    }
    row.cursor_tx = at.tx;
    row.cursor_seq = at.seq;
    row.lease_owner = null;
    row.lease_until = null;
  }
}
