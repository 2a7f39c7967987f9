// The one transaction runner. Requests reach it through inTransaction (context.ts), which adds what a
// request needs (If-Match, the Idempotency-Key, the request's memos); work done for no request (the
// CLI, the first start, the webhook worker, import) calls it directly, with no actor to invent.
import { type Kysely, sql } from 'kysely';
import { isRetryable, retrying } from './errors.ts';
import { GroupCommit } from './group-commit.ts';
import type { Database } from './index.ts';
import type { DB } from './types.ts';

export interface Transaction {
  /** The transaction's handle (within a savepoint, the same connection). */
  readonly db: Kysely<DB>;
  /**
   * Runs `hook` once the transaction has committed: never when it rolls back, nor for an attempt that
   * is run again, nor when the savepoint it was registered in is rolled back. A hook registered twice
   * runs once. Hooks run after the commit, when the work's answer is settled: they must not throw.
   */
  afterCommit(hook: () => void): void;
  /**
   * Runs `fn` behind a savepoint: when it throws, what it wrote (and the hooks it registered) is rolled
   * back and the error goes on to the caller, in a transaction that can go on. A deadlock or
   * serialization failure is passed on as it is: the whole transaction runs again.
   */
  savepoint<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
}

export interface TransactionOptions {
  /**
   * Whether a deadlock or serialization failure (PostgreSQL) runs `fn` again in a new transaction, a
   * bounded number of times (errors.ts `retrying`). Default true; false only where `fn` cannot be
   * repeated (it reads a stream that cannot be read twice).
   */
  retry?: boolean;
  /**
   * SQLite: `fn` may share its transaction and commit with others waiting at the same moment
   * (group-commit.ts), behind a savepoint of its own. For request transactions (context.ts): `fn` must
   * not depend on being alone in the transaction, only on its own savepoint.
   */
  group?: boolean;
}

/**
 * Runs `fn` in one transaction: it commits when fn resolves and rolls back when it throws, then runs
 * the after-commit hooks. When retried, `fn` must do nothing outside the database that it cannot repeat.
 */
export function transaction<T>(
  database: Database,
  fn: (tx: Transaction) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if (options.group && database.dialect === 'sqlite') return inGroup(database.db, fn);
  const attempt = async (): Promise<T> => {
    const hooks: (() => void)[] = [];
    const result = await database.db.transaction().execute((trx) => fn(handle(trx, hooks, 1)));
    runHooks(hooks);
    return result;
  };
  return options.retry === false ? attempt() : retrying(attempt);
}

const groups = new WeakMap<Kysely<DB>, GroupCommit>();

/** The database's group commit (SQLite has one writer, so one queue per database handle). */
export function groupCommitOf(db: Kysely<DB>): GroupCommit {
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groups.set(db, group);
  }
  return group;
}

/** `fn` as a unit of the next group commit; its hooks run once the group has committed. */
async function inGroup<T>(db: Kysely<DB>, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  const result = await groupCommitOf(db).run(async (trx) => {
    const hooks: (() => void)[] = [];
    const result = await fn(handle(trx, hooks, 1));
    return { result, afterCommit: () => runHooks(hooks) };
  });
  return result as T;
}

function runHooks(hooks: (() => void)[]): void {
  for (const hook of new Set(hooks)) hook();
}

/**
 * A handle on the transaction `db`; `depth` names its savepoints, so that a transaction uses as many
 * names as it nests savepoints (SQLite's driver keeps a statement per SQL text).
 */
function handle(db: Kysely<DB>, hooks: (() => void)[], depth: number): Transaction {
  return {
    db,
    afterCommit(hook) {
      hooks.push(hook);
    },
    async savepoint(fn) {
      const name = sql.raw(`point${depth}`);
      const registered = hooks.length;
      await sql`savepoint ${name}`.execute(db);
      try {
        const result = await fn(handle(db, hooks, depth + 1));
        await sql`release savepoint ${name}`.execute(db);
        return result;
      } catch (error) {
        if (!isRetryable(error)) {
          // Rolled back and released, so that the next savepoint of this depth starts clean.
          await sql`rollback to savepoint ${name}`.execute(db);
          await sql`release savepoint ${name}`.execute(db);
          hooks.length = registered;
        }
        throw error;
      }
    },
  };
}
