// Recognizing database errors that are the client's concern, the same way on both databases.

/** A unique or primary-key constraint refused a row (SQLite 2067/1555, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown };
  if (e.code === '23505') return true;
  return e.code === 'ERR_SQLITE_ERROR' && (e.errcode === 2067 || e.errcode === 1555);
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

/** How many times a transaction is tried in all when the database asks for a retry. */
export const TRANSACTION_ATTEMPTS = 5;

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
