// The one transaction runner. Requests reach it through inTransaction (context.ts), which adds what a
// request needs (If-Match, the Idempotency-Key, the request's memos); work done for no request (the
// CLI, the first start, the webhook worker, import) calls it directly, with no actor to invent.
import { type Kysely, sql } from 'kysely';
import { isRetryable, retrying } from './errors.ts';
import { GroupCommit, type GroupStats } from './group-commit.ts';
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
   * Lets `fn` share its transaction and commit with others waiting at the same moment (group-commit.ts),
   * behind a savepoint of its own: on SQLite whenever it is set (one writer, one queue); on PostgreSQL
   * only with the transactions given the same name (one queue per name: a workspace's hot row). `fn`
   * must not depend on being alone in the transaction, only on its own savepoint.
   */
  group?: true | string;
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
  const queue = database.dialect === 'sqlite' ? SQLITE_QUEUE : options.group;
  if (options.group !== undefined && typeof queue === 'string')
    return inGroup(groupCommitOf(database, queue), fn);
  const attempt = async (): Promise<T> => {
    const hooks: (() => void)[] = [];
    const result = await database.db.transaction().execute((trx) => fn(handle(trx, hooks, 1)));
    runHooks(hooks);
    return result;
  };
  return options.retry === false ? attempt() : retrying(attempt);
}

/** SQLite's one queue: every grouped transaction waits for the same writer. */
const SQLITE_QUEUE = 'sqlite';
/**
 * How long a group keeps taking units. SQLite's holds the one connection, which reads wait for too, so
 * its groups stay short; a PostgreSQL group holds one connection of a pool and the rows it locked.
 */
const GROUP_MS = { sqlite: 20, postgres: 100 };
const queues = new WeakMap<Kysely<DB>, { byName: Map<string, GroupCommit>; stats: GroupStats }>();

function queuesOf(db: Kysely<DB>) {
  let found = queues.get(db);
  if (!found) {
    found = { byName: new Map(), stats: { groups: 0, units: 0 } };
    queues.set(db, found);
  }
  return found;
}

/** The named queue of group commits on this database; it is forgotten whenever it runs empty. */
function groupCommitOf({ db, dialect }: Database, name: string): GroupCommit {
  const { byName, stats } = queuesOf(db);
  let group = byName.get(name);
  if (!group) {
    const options = { maxMs: GROUP_MS[dialect], joinStatements: dialect === 'postgres' };
    group = new GroupCommit(db, stats, options, () => byName.delete(name));
    byName.set(name, group);
  }
  return group;
}

/** How many groups committed on this database, with how many transactions in all. */
export function groupStats(db: Kysely<DB>): GroupStats {
  return { ...queuesOf(db).stats };
}

/** `fn` as a unit of the queue's next group; its hooks run once the group has committed. */
async function inGroup<T>(group: GroupCommit, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  const result = await group.run(async (trx) => {
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
