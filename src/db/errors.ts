// Recognizing database errors that are the client's concern, the same way on both databases.

/** A unique or primary-key constraint refused a row (SQLite 2067/1555, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown };
  if (e.code === '23505') return true;
  return e.code === 'ERR_SQLITE_ERROR' && (e.errcode === 2067 || e.errcode === 1555);
}

// PostgreSQL: unique 23505, foreign key 23503, check 23514. SQLite's extended codes: unique 2067,
// primary key 1555, foreign key 787, check 275.
const PG_CONSTRAINTS = new Set(['23505', '23503', '23514']);
const SQLITE_CONSTRAINTS = new Set([2067, 1555, 787, 275]);

/**
 * A unique, foreign-key or check constraint refused a write. Services check all of these first and
 * lock what they check (docs/reliability.md, "Concurrent changes"), so one that still reaches the
 * database lost a race to another request: the client is told 409 conflict, and a retry meets the
 * checks again and gets the sequential answer. Not-null violations are not here: they are bugs.
 */
export function isConstraintViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown };
  if (typeof e.code === 'string' && PG_CONSTRAINTS.has(e.code)) return true;
  return e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && SQLITE_CONSTRAINTS.has(e.errcode);
}

/** The constraint's name when the database gives it (PostgreSQL), for the log. */
export function constraintOf(error: unknown): string | undefined {
  const name = (error as { constraint?: unknown } | null)?.constraint;
  return typeof name === 'string' ? name : undefined;
}

/**
 * PostgreSQL gave up on the transaction so that another could go on: a deadlock (40P01) or a
 * serialization failure (40001). Running the whole transaction again is the cure; a client never sees it.
 */
export function isRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '40P01' || code === '40001';
}

/**
 * An error that has the request's transaction run again from the start, as a serialization failure
 * does: for a transaction that finds, under a lock, that something it decided on earlier has changed.
 */
export function retryTransaction(message: string): Error {
  return Object.assign(new Error(message), { code: '40001' });
}

/** How many times a transaction is tried in all when the database asks for a retry. */
const TRANSACTION_ATTEMPTS = 5;

/** Runs `attempt` again (a fresh transaction each time) while it fails with a retryable error. */
export async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error) || tries >= TRANSACTION_ATTEMPTS) throw error;
      // A short random pause, growing with each try, so the two sides do not collide again at once.
      await new Promise((r) => setTimeout(r, Math.random() * 10 * tries));
    }
  }
}

// PostgreSQL classes 08 (connection exception) and 53 (insufficient resources: too many connections,
// disk full), shutdowns (57P01-57P03) and statement_timeout's cancel (57014).
const PG_UNAVAILABLE = /^(08|53|57P0[1-3]$|57014$)/;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
// pg and pg-pool throw these as plain Errors, with no code to match; their texts are all there is.
const PG_CLIENT_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|not queryable|Connection closed|Client was closed/;
// SQLite: SQLITE_BUSY (5) and SQLITE_LOCKED (6), after the busy timeout has run out.
const SQLITE_UNAVAILABLE = new Set([5, 6]);

/**
 * The database cannot answer now (unreachable, overloaded, too slow, locked): the request did not
 * happen and may be retried, which clients are told with a 503 and Retry-After.
 */
export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (PG_UNAVAILABLE.test(e.code) || SOCKET_CODES.has(e.code))) return true;
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    return SQLITE_UNAVAILABLE.has(e.errcode & 0xff);
  }
  // Connecting to every address of a host failed (Node's happy eyeballs): an AggregateError.
  if (Array.isArray(e.errors) && e.errors.some(isUnavailable)) return true;
  return typeof e.message === 'string' && PG_CLIENT_MESSAGES.test(e.message);
}

export type UnavailableCause =
  | 'sqlite_busy'
  | 'pool_timeout'
  | 'statement_timeout'
  | 'connection'
  | 'database';

/** Why the database could not answer (isUnavailable's errors), for the metrics: a fixed set of causes. */
export function unavailableCause(error: unknown): UnavailableCause {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  if (e.code === 'ERR_SQLITE_ERROR') return 'sqlite_busy';
  if (e.code === '57014') return 'statement_timeout';
  if (typeof e.message === 'string' && /timeout exceeded when trying to connect/.test(e.message))
    return 'pool_timeout';
  if (typeof e.code === 'string' && /^(53|57P0)/.test(e.code)) return 'database';
  return 'connection';
}
