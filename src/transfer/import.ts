// `cairn import`: loads an export (export.ts) into either database in one transaction, so that a file
// that is cut short, out of order or of another schema leaves nothing behind. A workspace already in
// the database is skipped whole, which makes a second run of the same file change nothing.
//
// The rows are checked and written one at a time as the file is read (loader.ts): SQLite takes them
// in prepared multi-row INSERTs, PostgreSQL through COPY on the transaction's own client. Tables that
// were empty have their secondary indexes built once at the end (deferred.ts), and on PostgreSQL the
// words of tasks imported into a database without any are filled once at the end (task-words.ts).
import type { Readable } from 'node:stream';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/index.ts';
import { MIGRATION_NAMES } from '../db/migrate.ts';
import { transaction } from '../db/transaction.ts';
import type { DB } from '../db/types.ts';
import { type Deferred, deferIndexesAndKeys } from './deferred.ts';
import { type Header, schemaVersion } from './export.ts';
import { ImportError, Loader } from './loader.ts';
import { FORMAT, FORMAT_VERSION, TABLES } from './tables.ts';
import { deferTaskWords } from './task-words.ts';
import { columnRules } from './values.ts';

export { ImportError } from './loader.ts';

export interface ImportOptions {
  progress?: (line: string) => void;
}

export interface ImportResult {
  imported: string[];
  skipped: string[];
  rows: number;
}

/** SQLite's page cache during an import (KiB): the new rows' index pages stay in memory until commit. */
const SQLITE_IMPORT_CACHE_KIB = 256 * 1024;

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
 * The file's lines, decoded strictly as request bodies are (http/json-body.ts): bytes that are not
 * UTF-8 refuse the file rather than arrive as U+FFFD in a stored name. Chunks that are already text
 * (a stream of strings) pass as they are. A chunk's lines come as one array: no await per line.
 */
async function* lineBatches(input: Readable): AsyncGenerator<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let offset = 0;
  let rest = '';
  for await (const chunk of input) {
    let text: string;
    if (typeof chunk === 'string') {
      text = chunk;
    } else {
      try {
        text = decoder.decode(chunk as Buffer, { stream: true });
      } catch {
        throw new ImportError(
          `the file is not UTF-8: bytes ${offset} to ${offset + chunk.length} hold a sequence that is not`,
        );
      }
      offset += chunk.length;
    }
    const lines = (rest + text).split('\n');
    rest = lines.pop()!;
    if (lines.length > 0) yield lines;
  }
  try {
    rest += decoder.decode();
  } catch {
    throw new ImportError('the file is not UTF-8: it ends inside a character');
  }
  if (rest !== '') yield [rest];
}

/** The file, line by line: its header, its rows, and the end line that proves it whole. */
async function loadFile(loader: Loader, input: Readable, schema: string): Promise<ImportResult> {
  let header: Header | undefined;
  let lineNo = 0;
  let ended = false;
  for await (const lines of lineBatches(input)) {
    for (const line of lines) {
      lineNo += 1;
      // As readline read them: a CR before the LF is not part of the line.
      const text = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (!header) {
        header = checkHeader(text, schema);
        continue;
      }
      if (text.trim() === '') continue;
      if (ended) throw new ImportError(`line ${lineNo}: text after the end line`);
      let parsed: { table?: unknown; row?: unknown; end?: unknown; rows?: unknown };
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ImportError(`line ${lineNo} is not JSON: the file is damaged`);
      }
      if (parsed?.end === true) {
        await loader.end(parsed.rows, header);
        ended = true;
        continue;
      }
      await loader.add(lineNo, parsed?.table, parsed?.row);
    }
  }
  if (!header) checkHeader(undefined, schema);
  if (!ended) {
    throw new ImportError(`the file ends at line ${lineNo} without its end line: it was cut short`);
  }
  return { imported: loader.imported, skipped: loader.skipped, rows: loader.written };
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
  const result = await withImportConnection(database, (target, client) =>
    transaction(
      target,
      async (tx) => {
        const file = open();
        const loader = new Loader(target, tx.db, client, progress, rules);
        try {
          const rebuild = await deferIndexesAndKeys(
            tx.db,
            target.dialect,
            TABLES.map((t) => t.name),
          );
          const fillWords = await deferTaskWords(tx.db, target.dialect);
          const loaded = await loadFile(loader, file, schema);
          // The rows are in; what was left for the end can take as long again, so it says so.
          await timed(progress, rebuild);
          await timed(progress, fillWords);
          return loaded;
        } catch (error) {
          await loader.abort();
          throw error;
        } finally {
          // Read to its end, or given up on: a retry opens the file anew.
          file.destroy();
        }
      },
      { retry: typeof input === 'function' },
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  progress(
    `import: ${result.rows.toLocaleString('en')} rows of ${result.imported.length} workspace(s) in ${seconds.toFixed(1)} s` +
      (result.skipped.length > 0 ? `; ${result.skipped.length} already present, skipped` : ''),
  );
  // Fresh statistics for the new rows, on both databases: PostgreSQL would plan its first queries on
  // them as if the tables were empty, and SQLite's `pragma optimize` (sqlite-driver.ts) would analyze
  // them only at the next open or hourly turn.
  if (result.rows > 0) {
    await timed(progress, {
      what: 'statistics of the new rows',
      finish: () => sql.raw('analyze').execute(database.db),
    });
  }
  return result;
}

/** One of the import's closing steps, said before it starts and when it is done (when there is one). */
async function timed(progress: (line: string) => void, step: Deferred): Promise<void> {
  if (step.what === null) return;
  const started = Date.now();
  progress(`import: ${step.what} …`);
  await step.finish();
  progress(`import: ${step.what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Runs the import on a connection fit for it. PostgreSQL: one client of the pool, held for the whole
 * import, with a Kysely of its own over it, so that the transaction's queries and its COPY share the
 * client. SQLite: its one connection, with a larger page cache while the import runs.
 */
async function withImportConnection<T>(
  database: Database,
  fn: (target: Database, client: pg.PoolClient | undefined) => Promise<T>,
): Promise<T> {
  const pool = database.pool;
  if (pool) {
    const client = await pool.connect();
    const release = client.release;
    // Kysely's pool of one: it takes this client for the transaction and "gives it back" to nothing;
    // the client goes back to the real pool once, below.
    client.release = () => {};
    const one = {
      connect: async () => client,
      end: async () => {},
      options: pool.options,
      Client: pg.Client,
    };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: one as never }) });
    let failed: Error | undefined;
    try {
      return await fn({ ...database, db }, client);
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      client.release = release;
      // A client whose import failed (a COPY broken off midway) is closed rather than reused.
      release(failed);
    }
  }
  const before = await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db);
  await sql.raw(`pragma cache_size = -${SQLITE_IMPORT_CACHE_KIB}`).execute(database.db);
  try {
    return await fn(database, undefined);
  } finally {
    await sql.raw(`pragma cache_size = ${Number(before.rows[0]?.cache_size ?? -2000)}`).execute(database.db);
  }
}
