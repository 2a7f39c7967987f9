// Kysely's SQLite dialect is written against better-sqlite3's API. This adapts node:sqlite (built into
// Node, so there is no native addon to compile) to that small interface, and makes transactions take
// the write lock up front (`begin immediate`) so that a second process never fails to upgrade a read
// lock midway through a transaction.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from 'kysely';

type Param = null | number | bigint | string | Uint8Array;

// node:sqlite binds only null, numbers, bigints, strings and byte arrays; booleans are stored as 0/1
// (PostgreSQL gets real booleans) and dates never reach the driver (the app passes ISO strings).
function bindable(value: unknown): Param {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as Param;
}

// node:sqlite makes each row an object of its own shape, in V8's dictionary mode (slow properties, no
// two rows alike), so every later read of a column (presenters, the serializer) is a hash lookup and
// no code reading rows stays monomorphic. Rows are read as arrays instead and made into objects here,
// each statement's by one function whose object literal names its columns: objects with fast
// properties and one shape per statement. The function is generated because an object filled
// column by column in a loop ends in dictionary mode too (V8, measured: `%HasFastProperties`); the
// names are written as JSON string literals, so no column name can be anything but a key (and
// `__proto__`, which a literal key would take as the object's prototype, as a computed one). As in
// node:sqlite's own rows, a name given twice keeps its last value.
type RowOf = (values: unknown[]) => Record<string, unknown>;

function rowMaker(names: readonly string[]): RowOf {
  const fields = names.map((name, i) => {
    const key = JSON.stringify(name);
    return `${name === '__proto__' ? `[${key}]` : key}: values[${i}]`;
  });
  return new Function('values', `return { ${fields.join(', ')} };`) as RowOf;
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;
  readonly #row: RowOf;

  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    const names = stmt.columns().map((c) => c.name);
    this.reader = names.length > 0;
    this.#row = rowMaker(names);
    if (this.reader) stmt.setReturnArrays(true);
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows = this.#stmt.all(...parameters.map(bindable)) as unknown as unknown[][];
    return rows.map((values) => this.#row(values));
  }

  run(parameters: ReadonlyArray<unknown>) {
    const { changes, lastInsertRowid } = this.#stmt.run(...parameters.map(bindable));
    return { changes, lastInsertRowid };
  }

  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    for (const values of this.#stmt.iterate(...parameters.map(bindable))) {
      yield this.#row(values as unknown as unknown[]);
    }
  }
}

/** How often a long-lived connection refreshes the planner's statistics (SQLite's advice: hourly). */
const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  // Statements are compiled once per SQL text: the hot paths repeat the same few queries.
  readonly #cache = new Map<string, NodeSqliteStatement>();
  readonly #optimizer: NodeJS.Timeout;

  constructor(db: DatabaseSync) {
    this.#db = db;
    // `pragma optimize` analyzes only the tables whose statistics are missing or stale, within a
    // bounded number of rows per index, so it is cheap enough to run on a timer; a busy database
    // (another process writing) just skips a turn.
    this.#optimizer = setInterval(() => optimize(db), OPTIMIZE_EVERY_MS).unref();
  }

  prepare(sql: string): SqliteStatement {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = new NodeSqliteStatement(this.#db.prepare(sql));
      if (this.#cache.size >= 500) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  close(): void {
    clearInterval(this.#optimizer);
    this.#cache.clear();
    if (this.#db.isOpen) {
      optimize(this.#db);
      this.#db.close();
    }
  }
}

/** Opens (creating if needed) a SQLite file in WAL mode with foreign keys and a busy timeout. */
export function openSqlite(path: string): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: 5000 });
  db.exec('pragma journal_mode = wal');
  // full, not normal: with WAL, normal may lose the last acknowledged commits on power loss.
  db.exec('pragma synchronous = full');
  db.exec('pragma foreign_keys = on');
  db.exec('pragma busy_timeout = 5000');
  // As SQLite advises for long-lived connections: on open, analyze every table that needs it
  // (0x10000: all tables, not only those this connection has used), then hourly and on close.
  optimize(db, 'pragma optimize = 0x10002');
  return db;
}

function optimize(db: DatabaseSync, statement = 'pragma optimize'): void {
  try {
    db.exec(statement);
  } catch {
    // Busy or read-only: the statistics wait for the next turn.
  }
}

export class NodeSqliteDialect extends SqliteDialect {
  constructor(db: DatabaseSync) {
    super({ database: new NodeSqliteDatabase(db) });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}
