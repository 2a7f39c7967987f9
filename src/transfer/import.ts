// `cairn import`: loads an export (export.ts) into either database in one transaction, so that a file
// that is cut short, out of order or of another schema leaves nothing behind. A workspace already in
// the database is skipped whole, which makes a second run of the same file change nothing.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { MIGRATION_NAMES } from '../db/migrate.ts';
import { transaction } from '../db/transaction.ts';
import type { DB } from '../db/types.ts';
import { positionOf, START } from '../events/stream.ts';
import { nextCode } from '../modules/workspaces/repository.ts';
import { type Header, schemaVersion } from './export.ts';
import { booleansOf, FORMAT, FORMAT_VERSION, TABLES, type TableSpec } from './tables.ts';
import { type ColumnRule, columnRules, rowProblem } from './values.ts';

/** Rows per INSERT: well under both databases' limits on bound values (SQLite 32,766). */
const BATCH = 500;

export class ImportError extends Error {}

export interface ImportOptions {
  progress?: (line: string) => void;
}

export interface ImportResult {
  imported: string[];
  skipped: string[];
  rows: number;
}

type Row = Record<string, unknown>;

const ORDER = new Map(TABLES.map((t, i) => [t.name as string, i]));

function checkHeader(line: string | undefined, schema: string): Header {
  let header: Partial<Header>;
  try {
    header = JSON.parse(line ?? '');
  } catch {
    throw new ImportError('line 1 is not a Cairn export header (the file is not JSON Lines)');
  }
  if (header?.format !== FORMAT) throw new ImportError('line 1 is not a Cairn export header');
  if (header.version !== FORMAT_VERSION) {
    throw new ImportError(
      `export format ${header.version} is not ${FORMAT_VERSION}, the one this Cairn reads`,
    );
  }
  if (header.schema !== schema) {
    const known = MIGRATION_NAMES.includes(String(header.schema));
    throw new ImportError(
      known
        ? `the file is of schema ${header.schema}, older than this database's ${schema}: upgrade the Cairn that wrote it and export again`
        : `the file is of schema ${header.schema}, newer than this Cairn knows (${schema}): upgrade Cairn first`,
    );
  }
  return header as Header;
}

/**
 * The file's text, decoded strictly as request bodies are (http/json-body.ts): bytes that are not
 * UTF-8 refuse the file rather than arrive as U+FFFD in a stored name. Chunks that are already text
 * (a stream of strings) pass as they are.
 */
async function* strictText(input: Readable): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let offset = 0;
  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    try {
      yield decoder.decode(chunk as Buffer, { stream: true });
    } catch {
      throw new ImportError(
        `the file is not UTF-8: bytes ${offset} to ${offset + chunk.length} hold a sequence that is not`,
      );
    }
    offset += chunk.length;
  }
  try {
    yield decoder.decode();
  } catch {
    throw new ImportError('the file is not UTF-8: it ends inside a character');
  }
}

/**
 * Loads `input`: the file, or a way to open it. Only a file that can be opened again is retried when
 * PostgreSQL asks (a deadlock), since each attempt reads it from its start.
 */
export async function importData(
  database: Database,
  input: Readable | (() => Readable),
  options: ImportOptions = {},
): Promise<ImportResult> {
  const progress = options.progress ?? (() => {});
  const schema = await schemaVersion(database.db);
  const rules = await columnRules(database.db, database.dialect);
  const open = typeof input === 'function' ? input : () => input;
  const started = Date.now();
  const result = await transaction(
    database,
    async (tx) => {
      const file = open();
      try {
        return await loadFile(new Loader(database, tx.db, progress, rules), file, schema);
      } finally {
        // Read to its end, or given up on: a retry opens the file anew.
        file.destroy();
      }
    },
    { retry: typeof input === 'function' },
  );
  const seconds = (Date.now() - started) / 1000;
  progress(
    `import: ${result.rows.toLocaleString('en')} rows of ${result.imported.length} workspace(s) in ${seconds.toFixed(1)} s` +
      (result.skipped.length > 0 ? `; ${result.skipped.length} already present, skipped` : ''),
  );
  // Fresh statistics for the new rows, on both databases: PostgreSQL would plan its first queries on
  // them as if the tables were empty, and SQLite's `pragma optimize` (sqlite-driver.ts) would analyze
  // them only at the next open or hourly turn.
  if (result.rows > 0) await sql.raw('analyze').execute(database.db);
  return result;
}

/** The file, line by line: its header, its rows, and the end line that proves it whole. */
async function loadFile(loader: Loader, input: Readable, schema: string): Promise<ImportResult> {
  const lines = createInterface({
    input: Readable.from(strictText(input)),
    crlfDelay: Number.POSITIVE_INFINITY,
  })[Symbol.asyncIterator]();
  const first = await lines.next();
  const header = checkHeader(first.done ? undefined : first.value, schema);
  let lineNo = 1;
  let ended = false;
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    lineNo += 1;
    const text = next.value;
    if (text.trim() === '') continue;
    if (ended) throw new ImportError(`line ${lineNo}: text after the end line`);
    let parsed: { table?: string; row?: Row; end?: boolean; rows?: number };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ImportError(`line ${lineNo} is not JSON: the file is damaged`);
    }
    if (parsed.end === true) {
      await loader.end(parsed.rows, header);
      ended = true;
      continue;
    }
    await loader.add(lineNo, parsed.table, parsed.row);
  }
  if (!ended) {
    throw new ImportError(`the file ends at line ${lineNo} without its end line: it was cut short`);
  }
  return { imported: loader.imported, skipped: loader.skipped, rows: loader.written };
}

/** Takes the file's rows one by one and writes them in batches, table by table. */
class Loader {
  readonly imported: string[] = [];
  readonly skipped: string[] = [];
  /** Row lines read; rows written. */
  seen = 0;
  written = 0;
  #workspace: { id: string; code: number; name: string; skip: boolean } | undefined;
  #table: TableSpec | undefined;
  #batch: Row[] = [];
  #tableRows = 0;
  readonly #database: Database;
  readonly #trx: Kysely<DB>;
  readonly #progress: (line: string) => void;
  readonly #rules: Map<string, Map<string, ColumnRule>>;

  constructor(
    database: Database,
    trx: Kysely<DB>,
    progress: (line: string) => void,
    rules: Map<string, Map<string, ColumnRule>>,
  ) {
    this.#database = database;
    this.#trx = trx;
    this.#progress = progress;
    this.#rules = rules;
  }

  async add(lineNo: number, tableName: string | undefined, row: Row | undefined): Promise<void> {
    const at = ORDER.get(tableName ?? '');
    if (at === undefined || typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new ImportError(`line ${lineNo}: not a row of a known table`);
    }
    this.seen += 1;
    const table = TABLES[at]!;
    // Every row is checked, a skipped workspace's too: a file is taken whole or not at all.
    const problem = rowProblem(this.#rules.get(table.name)!, row);
    if (problem) throw new ImportError(`line ${lineNo}: ${table.name}.${problem}`);
    if (table.name === 'workspaces') {
      await this.#finish();
      await this.#startWorkspace(row);
    } else {
      if (!this.#workspace || row.workspace_id !== this.#workspace.id) {
        throw new ImportError(`line ${lineNo}: a ${table.name} row outside its workspace's part of the file`);
      }
      if (this.#table && at < ORDER.get(this.#table.name)!) {
        throw new ImportError(`line ${lineNo}: ${table.name} after ${this.#table.name}, out of order`);
      }
    }
    if (this.#workspace?.skip) return;
    if (this.#table !== table) {
      await this.#flush();
      this.#endTable();
      this.#table = table;
    }
    this.#batch.push(row);
    if (this.#batch.length >= BATCH) await this.#flush();
  }

  /** The end line: the rows it counts and the workspaces the header names must be those the file held. */
  async end(rows: number | undefined, header: Header): Promise<void> {
    await this.#finish();
    if (rows !== this.seen) {
      throw new ImportError(`the end line counts ${rows} rows, the file holds ${this.seen}`);
    }
    const held = [...this.imported, ...this.skipped].sort().join();
    if (held !== [...(header.workspaces ?? [])].sort().join()) {
      throw new ImportError('the workspaces in the file are not the ones its header names');
    }
  }

  async #finish(): Promise<void> {
    await this.#flush();
    this.#endTable();
    this.#table = undefined;
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

  #endTable(): void {
    if (this.#table && this.#tableRows > 0) {
      this.#progress(
        `import: ${this.#workspace?.name}: ${this.#table.name} ${this.#tableRows.toLocaleString('en')} rows`,
      );
    }
    this.#tableRows = 0;
  }

  async #flush(): Promise<void> {
    const table = this.#table;
    const rows = this.#batch;
    if (!table || rows.length === 0) return;
    this.#batch = [];
    const ws = this.#workspace!;
    const ctx = { db: this.#trx, search: this.#database.search, workspace: { code: ws.code } };
    const stored = await Promise.all(rows.map((row) => this.#stored(table, row)));
    const values = table.rowIndex
      ? stored.map((row) => ({ ...row, ...table.rowIndex!.columns(ctx, row as never) }))
      : stored;
    try {
      if (table.index) {
        const made = await this.#trx
          .insertInto(table.name)
          .values(values as never)
          .returning(['id', 'seq'] as never)
          .execute();
        const seqs = new Map((made as { id: string; seq: unknown }[]).map((r) => [r.id, Number(r.seq)]));
        await table.index.writeNew(
          ctx,
          stored.map((r) => ({ ...r, seq: seqs.get(String(r.id)) }) as never),
        );
      } else {
        await this.#trx
          .insertInto(table.name)
          .values(values as never)
          .execute();
      }
    } catch (error) {
      throw new ImportError(`${table.name} of ${ws.name}: ${(error as Error).message}`);
    }
    this.written += rows.length;
    const before = this.#tableRows;
    this.#tableRows += rows.length;
    if (Math.floor(this.#tableRows / 50_000) > Math.floor(before / 50_000)) {
      this.#progress(`import: ${ws.name}: ${table.name} ${this.#tableRows.toLocaleString('en')} rows…`);
    }
  }

  /** A file row as this database stores it: its booleans, and a subscription's place in the stream. */
  async #stored(table: TableSpec, row: Row): Promise<Row> {
    const out: Row = { ...row };
    if (this.#database.dialect === 'sqlite') {
      for (const column of booleansOf(table.name)) {
        if (typeof out[column] === 'boolean') out[column] = out[column] ? 1 : 0;
      }
    }
    if (table.name === 'webhook_subscriptions') {
      const eventId = out.cursor_event_id;
      delete out.cursor_event_id;
      // Its events came earlier in the file, so they have their places in this database already.
      const at =
        typeof eventId === 'string' ? await positionOf(this.#trx, String(row.workspace_id), eventId) : START;
      if (!at)
        throw new ImportError(
          `subscription ${row.id} has passed event ${eventId}, which the file does not hold`,
        );
      out.cursor_tx = at.tx;
      out.cursor_seq = at.seq;
      out.lease_owner = null;
      out.lease_until = null;
    }
    return out;
  }
}
