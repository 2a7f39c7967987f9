// What every service call gets: the database handle (usually the request's transaction), who is acting
// and in which workspace. Services never read HTTP state; routes build this from the authenticated
// request.
import type { Kysely } from 'kysely';
import { now as clockNow } from './clock.ts';
import { isRetryable } from './db/errors.ts';
import { type ClaimRef, markCommitted } from './db/idempotency.ts';
import type { Database, Dialect } from './db/index.ts';
import type { SearchProvider } from './db/search/index.ts';
import { type Transaction, transaction } from './db/transaction.ts';
import type { DB, WorkspaceRole } from './db/types.ts';
import { type Expected, type IfMatch, ifMatchOf, settleIfMatch } from './preconditions.ts';

export interface Actor {
  id: string;
  name: string;
  email: string;
  role: WorkspaceRole;
  /** The credential's id: the API token's, or the session's when signed in with the cookie. */
  tokenId: string;
}

export interface WorkspaceRef {
  id: string;
  name: string;
  /** Small per-instance number (search/fts5.ts prefixes indexed words with it). */
  code: number;
}

export interface Auth {
  actor: Actor;
  workspace: WorkspaceRef;
  /**
   * Present when the request was signed in with the session cookie rather than an API token
   * (http/auth.ts): the session's id (also the actor's tokenId), and its new expiry when this request
   * renewed it (the answer then carries the cookie again).
   */
  session?: { id: string; renewedUntil?: string };
  /** The versions the request's If-Match expects of the resource it changes (preconditions.ts). */
  expected?: Expected;
  /** The Idempotency-Key the request holds: its change marks it committed (http/idempotency.ts). */
  idempotency?: ClaimRef;
}

export interface Context extends Auth {
  db: Kysely<DB>;
  /** Within a write's transaction: its If-Match, and whether the row it changes was compared. */
  ifMatch?: IfMatch;
  dialect: Dialect;
  search: SearchProvider;
  /** The transaction `db` belongs to, for savepoints and after-commit hooks; none in a read context. */
  tx?: Transaction;
}

export function now(): string {
  return clockNow();
}

/**
 * The time a change to an existing row is stamped with: now, but always after the row's updatedAt.
 * A row's version (its ETag, compared by If-Match) is its updatedAt to the millisecond, and the time
 * is often read before the row lock is taken: without this, two quick changes could share a version,
 * and a change that waited for another's lock could move updatedAt back.
 */
export function changedAt(previous: string | Date, at: string = now()): string {
  const before = previous instanceof Date ? previous.getTime() : Date.parse(previous);
  const ms = Date.parse(at);
  return ms > before ? at : new Date(before + 1).toISOString();
}

/**
 * The one way a Context is made: `tx` is the transaction the work runs in (inTransaction, inSavepoint);
 * without one, `db` is the database itself, for plain reads.
 */
export function contextOf(database: Database, auth: Auth, tx?: Transaction): Context {
  const base = { ...auth, dialect: database.dialect, search: database.search };
  return tx ? { ...base, db: tx.db, tx } : { ...base, db: database.db };
}

/**
 * Runs `fn` in one transaction for a request (db/transaction.ts): it commits when fn resolves and rolls
 * back when it throws. A deadlock or serialization failure (PostgreSQL) runs the whole of `fn` again in
 * a new transaction, a bounded number of times, so `fn` must do nothing outside the database that it
 * cannot repeat (what must follow the commit goes to `afterCommit`).
 * A request's If-Match must have been compared with the row it changes before anything commits
 * (preconditions.ts): a write that compared nothing, such as a create, is 412 and rolled back. A route
 * that refuses If-Match (the batch) has none to settle.
 * Each attempt starts with the request's memos forgotten (forgetRequestMemos).
 * On SQLite, request transactions waiting at the same moment share one commit (db/group-commit.ts),
 * each behind its own savepoint and each answered after that commit. On PostgreSQL those that name the
 * same `queue` of the same workspace do: a queue names the hot row they would otherwise take in turn,
 * each holding it to its own commit (tasks/counts.ts `COUNTER_QUEUE`).
 */
export function inTransaction<T>(
  database: Database,
  auth: Auth,
  fn: (ctx: Context) => Promise<T>,
  options: { queue?: string } = {},
): Promise<T> {
  return transaction(
    database,
    async (tx) => {
      forgetRequestMemos(auth.actor);
      const ctx: Context = { ...contextOf(database, auth, tx), ifMatch: ifMatchOf(auth.expected) };
      const result = await fn(ctx);
      settleIfMatch(ctx);
      await committing(tx.db, auth);
      return result;
    },
    { group: options.queue ? `${auth.workspace.id}:${options.queue}` : true },
  );
}

/**
 * Runs `fn` behind a savepoint of ctx's transaction: when it throws, what it wrote is rolled back alone
 * and the error goes on, while the transaction goes on. The rollback gave back the locks the unit took,
 * so the memos read under them are forgotten too.
 */
export async function inSavepoint<T>(ctx: Context, fn: (ctx: Context) => Promise<T>): Promise<T> {
  if (!ctx.tx) throw new Error('a savepoint needs a transaction');
  try {
    return await ctx.tx.savepoint((tx) => fn({ ...ctx, db: tx.db, tx }));
  } catch (error) {
    if (!isRetryable(error)) forgetRequestMemos(ctx.actor);
    throw error;
  }
}

/**
 * Runs `hook` once what ctx wrote has committed (db/transaction.ts `afterCommit`); at once outside a
 * transaction, where each statement commits by itself.
 */
export function afterCommit(ctx: Pick<Context, 'tx'>, hook: () => void): void {
  if (ctx.tx) ctx.tx.afterCommit(hook);
  else hook();
}

/**
 * The last write of every request transaction: an idempotent request's key is marked committed with
 * the change, so that a retry can tell "never happened" from "happened, answer lost".
 */
async function committing(trx: Kysely<DB>, auth: Auth): Promise<void> {
  if (auth.idempotency) await markCommitted(trx, auth.idempotency, now());
}

/** A context outside any transaction, for reads that need only one consistent query or several cheap ones. */
export function readContext(database: Database, auth: Auth): Context {
  return contextOf(database, auth);
}

// Lookups a request repeats (which groups the caller sees, a team's statuses), kept for that request
// only: the actor object is made once per authenticated request.
const requestMemos = new WeakMap<Actor, Map<string, Promise<unknown>>>();
// What the request's credential lookup read with it (the caller's groups): good for its transactions
// too, for as long as the keeper says (a write checks again under a lock what it relies on most:
// groups/lookup.ts confirmAccess), and forgotten with forgetAllMemos.
const credentialMemos = new WeakMap<Actor, Map<string, { value: unknown; until: number }>>();

/**
 * Forgets what the request has memoized. A memo read under a lock (a group's statuses, see
 * groups/lookup.ts) is only good while the transaction or savepoint that took the lock lasts: call it
 * when one starts and after a rollback, so that what a transaction relies on it has read itself.
 * What the credential's lookup read stays (keepForRequest).
 */
function forgetRequestMemos(actor: Actor): void {
  requestMemos.delete(actor);
}

/** Forgets every memo of the request, what its credential's lookup read included. */
export function forgetAllMemos(actor: Actor): void {
  requestMemos.delete(actor);
  credentialMemos.delete(actor);
}

/**
 * Keeps `value` as the request's memo of `key` (perRequest), its transactions included, for `forMs`;
 * later, perRequest loads it again as any other memo.
 */
export function keepForRequest(auth: Pick<Auth, 'actor'>, key: string, value: unknown, forMs: number): void {
  let kept = credentialMemos.get(auth.actor);
  if (!kept) {
    kept = new Map();
    credentialMemos.set(auth.actor, kept);
  }
  kept.set(key, { value, until: Date.now() + forMs });
}

/** `load()` once per request and key; a failed load is forgotten, so it is not cached. */
export function perRequest<T>(ctx: Pick<Context, 'actor'>, key: string, load: () => Promise<T>): Promise<T> {
  const kept = credentialMemos.get(ctx.actor)?.get(key);
  if (kept && Date.now() <= kept.until) return Promise.resolve(kept.value as T);
  let memo = requestMemos.get(ctx.actor);
  if (!memo) {
    memo = new Map();
    requestMemos.set(ctx.actor, memo);
  }
  let found = memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = load();
    memo.set(key, found);
    found.catch(() => memo.delete(key));
  }
  return found;
}
