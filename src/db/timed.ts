// Statement timing for the metrics (db/index.ts onStatement). Kysely's own `log` option does this with
// three awaits and a closure per statement; here the driver's connections are wrapped once. On SQLite a
// statement runs to completion inside executeQuery (node:sqlite is synchronous; Kysely's method is
// async only in name), so its time is read as the call returns: two clock reads, nothing allocated. On
// PostgreSQL the time is read when the promise settles: a closure and a `then` a statement, small
// beside the round trip.
import type { AbortableOperationOptions, CompiledQuery, DatabaseConnection, Dialect, Driver } from 'kysely';

export type OnStatement = (sql: string, ms: number) => void;

/**
 * The dialect as it is, or with every statement of its connections timed into onStatement.
 * `synchronous`: the driver does a statement's work before executeQuery returns (SQLite's).
 */
export function timedDialect(
  dialect: Dialect,
  onStatement: OnStatement | undefined,
  synchronous: boolean,
): Dialect {
  if (!onStatement) return dialect;
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => timedDriver(dialect.createDriver(), onStatement, synchronous),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

function timedDriver(driver: Driver, onStatement: OnStatement, synchronous: boolean): Driver {
  const timed = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const connection = await acquire();
    if (!timed.has(connection)) {
      (synchronous ? timeSynchronously : timeStatements)(connection, onStatement);
      timed.add(connection);
    }
    return connection;
  };
  return driver;
}

function timeStatements(connection: DatabaseConnection, onStatement: OnStatement): void {
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = <R>(query: CompiledQuery, options?: AbortableOperationOptions) => {
    const started = performance.now();
    const done = () => onStatement(query.sql, performance.now() - started);
    const result = execute<R>(query, options);
    // Failed statements count too, with the time they took; the caller still gets the failure.
    result.then(done, done);
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
