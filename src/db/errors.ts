// Recognizing database errors that are the client's concern, the same way on both databases.

/** A unique or primary-key constraint refused a row (SQLite 2067/1555, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown };
  if (e.code === '23505') return true;
  return e.code === 'ERR_SQLITE_ERROR' && (e.errcode === 2067 || e.errcode === 1555);
}
