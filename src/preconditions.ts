// Optimistic concurrency (If-Match, docs/decisions.md §8), as services see it: the versions a write was told
// to expect, checked against the row the write has just locked. A resource's version is its
// updatedAt, which every change moves; http/etag.ts puts it at the front of every ETag.
//
// The rule (docs/reliability.md "If-Match"): a write that carries If-Match commits only when the
// resource it changes was compared with it and matched. Each load for a change compares (checkVersion);
// the end of the transaction (inTransaction) refuses a write in which nothing was compared: a create,
// whose resource has no current version, so no tag matches it, `*` included (RFC 9110 §13.1.1). A
// service that forgets to compare therefore fails closed (412), never open.
import type { Kysely } from 'kysely';
import { findById, type RowSource } from './db/by-id.ts';
import type { Dialect } from './db/index.ts';
import type { DB } from './db/types.ts';
import { AppError, notFound } from './http/errors.ts';

/** What an If-Match header asked for: any existing version (`*`), or one of these. */
export type Expected = '*' | readonly string[];

/** A write's If-Match within one attempt of its transaction: what it expects, and whether a row was compared. */
export interface IfMatch {
  readonly expected: Expected;
  compared: boolean;
}

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

/** A fresh comparison state for one transaction attempt; none when the request sent no If-Match. */
export function ifMatchOf(expected: Expected | undefined): IfMatch | undefined {
  return expected === undefined ? undefined : { expected, compared: false };
}

/**
 * Throws 412 precondition_failed when `version` (the locked row's updatedAt, or createdAt for a
 * resource the API never changes) is not one the write was told to expect.
 */
export function checkVersion(ctx: { ifMatch?: IfMatch }, what: string, version: string | Date): void {
  const ifMatch = ctx.ifMatch;
  if (ifMatch === undefined) return;
  ifMatch.compared = true;
  if (ifMatch.expected === '*' || ifMatch.expected.includes(versionOf(version))) return;
  throw new AppError(
    'precondition_failed',
    `The ${what} changed since the ETag given in If-Match; GET it again and retry`,
  );
}

/** The end of a write: an If-Match that no existing row was compared with cannot hold (a create). */
export function settleIfMatch(ctx: { ifMatch?: IfMatch }): void {
  if (ctx.ifMatch === undefined || ctx.ifMatch.compared) return;
  throw new AppError(
    'precondition_failed',
    'If-Match names a version of an existing resource, and this request makes a new one; send it without If-Match',
  );
}

/** A kind of row that a change loads by id: where it lives, its name in answers, and its version. */
export interface RowKind<R> extends RowSource {
  /** As a 404 and a 412 name it ('project status'). */
  name: string;
  /** Its updatedAt, or createdAt for a row the API never changes (docs/reliability.md). */
  version: (row: R) => string | Date;
}

/** What loadById needs of a Context (context.ts imports this file, so not the Context itself). */
interface LoadContext {
  db: Kysely<DB>;
  dialect: Dialect;
  workspace: { id: string };
  ifMatch?: IfMatch;
}

/**
 * The row of `kind` with this id, or 404 when there is none (`id` null or undefined: a malformed one) or
 * `visible` hides it, so that a row the caller may not see answers as a random id. `forChange`
 * locks it (PostgreSQL; SQLite's write transaction already excludes other writers) and compares
 * If-Match with its version.
 */
export async function loadById<R>(
  ctx: LoadContext,
  kind: RowKind<R>,
  id: string | null | undefined,
  { forChange, visible }: { forChange: boolean; visible?: (row: R) => boolean },
): Promise<R> {
  const lock = forChange && ctx.dialect === 'postgres';
  const row = id == null ? undefined : await findById<R>(ctx.db, kind, ctx.workspace.id, id, lock);
  if (row === undefined || (visible !== undefined && !visible(row))) {
    throw notFound(kind.name.charAt(0).toUpperCase() + kind.name.slice(1));
  }
  if (forChange) checkVersion(ctx, kind.name, kind.version(row));
  return row;
}
