// Optimistic concurrency (If-Match, decisions §8), as services see it: the versions a write was told
// to expect, checked against the row the write has just locked. A resource's version is its
// updatedAt, which every change moves; http/etag.ts puts it at the front of every ETag.
import { AppError } from './http/errors.ts';

/** What an If-Match header asked for: any existing version (`*`), or one of these. */
export type Expected = '*' | readonly string[];

export function versionOf(updatedAt: string | Date): string {
  const ms = updatedAt instanceof Date ? updatedAt.getTime() : Date.parse(updatedAt);
  return ms.toString(36);
}

/** The versions named by an If-Match header's strong tags (weak ones never match a write). */
export function expectedFrom(tags: readonly string[]): Expected | undefined {
  if (tags.length === 0) return undefined;
  if (tags.includes('*')) return '*';
  return tags.flatMap((t) => {
    const m = /^"([0-9a-z]+)-[A-Za-z0-9_-]*"$/.exec(t);
    return m ? [m[1]!] : [];
  });
}

/** Throws 412 precondition_failed when `updatedAt` is not a version the write was told to expect. */
export function checkVersion(ctx: { expected?: Expected }, what: string, updatedAt: string | Date): void {
  const expected = ctx.expected;
  if (expected === undefined || expected === '*') return;
  if (expected.includes(versionOf(updatedAt))) return;
  throw new AppError(
    'precondition_failed',
    `The ${what} changed since the ETag given in If-Match; GET it again and retry`,
  );
}
