// Statement timing for the metrics (db/index.ts onStatement). Kysely's own `log` option does this with
// three awaits and a closure per statement; here the connections are wrapped once. On SQLite a
// statement runs to completion inside executeQuery (node:sqlite is synchronous; Kysely's method is
// async only in name), so its time is read as the call returns: two clock reads, nothing allocated. On
// PostgreSQL each pg client's `query` is wrapped as the pool connects it (timePgClient), and the time
// is read when its promise settles: a closure and a `then` a statement, small beside the round trip.
// (Wrapping Kysely's driver there too cost an async frame on every connection checkout: two a get.)
import type { AbortableOperationOptions, CompiledQuery, DatabaseConnection, Dialect, Driver } from 'kysely';
import type pg from 'pg';

export type OnStatement = (sql: string, ms: number) => void;

/**
 * The dialect as it is, or with every statement of its connections timed into onStatement: for a
 * driver that does a statement's work before executeQuery returns (SQLite's).
 */
export function timedDialect(dialect: Dialect, onStatement: OnStatement | undefined): Dialect {
  if (!onStatement) return dialect;
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => timedDriver(dialect.createDriver(), onStatement),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

function timedDriver(driver: Driver, onStatement: OnStatement): Driver {
  const timed = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const connection = await acquire();
    if (!timed.has(connection)) {
      timeSynchronously(connection, onStatement);
      timed.add(connection);
    }
    return connection;
  };
  return driver;
}

type Query = (...args: unknown[]) => unknown;

/** Times every promise-returning `query` of a pg client (Kysely's calls); once per connection. */
export function timePgClient(client: pg.PoolClient, onStatement: OnStatement): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const started = performance.now();
    const result = query(...args);
    if (result instanceof Promise) {
      const first = args[0] as string | { text?: unknown };
      const text = typeof first === 'string' ? first : typeof first.text === 'string' ? first.text : '';
      const done = () => onStatement(text, performance.now() - started);
      // Failed statements count too, with the time they took; the caller still gets the failure.
      result.then(done, done);
    }
    return result;
  };
}

function timeSynchronously(connection: DatabaseConnection, onStatement: OnStatement): void {
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = <R>(query: CompiledQuery, options?: AbortableOperationOptions) => {
    const started = performance.now();
    // A failed statement is a rejected promise here too, never a throw: it is timed all the same.
    const result = execute<R>(query, options);
    onStatement(query.sql, performance.now() - started);
    return result;
  };
}
