// Opaque keyset cursors (decisions §5). A cursor carries the sort key of the last item of a page and a
// digest of the query that made it, signed with the instance's secret: a cursor edited by hand, or
// replayed against another query (other filters, another endpoint, another workspace), is 400
// invalid_cursor. The secret lives in the database so that every server process shares it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Auth } from '../context.ts';
import type { KeyValue, PageRequest } from '../db/keyset.ts';
import { AppError, invalidRequest } from './errors.ts';
import { DEFAULT_LIMIT } from './schemas.ts';

export interface Cursors {
  encode(scope: string, key: KeyValue[]): string;
  /** The sort key of a cursor made for this scope, or 400 invalid_cursor. */
  decode(scope: string, cursor: string, arity: number): KeyValue[];
}

function digest(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 16);
}

function badCursor(): AppError {
  return new AppError('invalid_cursor', 'The cursor is malformed, was altered, or belongs to another query', [
    { path: '/query/cursor', message: 'not a cursor of this query' },
  ]);
}

export function createCursors(secret: string): Cursors {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
  return {
    encode(scope, key) {
      const payload = Buffer.from(JSON.stringify({ s: digest(scope), k: key })).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(scope, cursor, arity) {
      const [payload, mac, extra] = cursor.split('.');
      if (!payload || !mac || extra !== undefined) throw badCursor();
      const given = Buffer.from(mac, 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badCursor();
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw badCursor();
      }
      const { s, k } = (parsed ?? {}) as { s?: unknown; k?: unknown };
      if (s !== digest(scope) || !Array.isArray(k) || k.length !== arity) throw badCursor();
      if (!k.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw badCursor();
      }
      return k as KeyValue[];
    },
  };
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Cuts the `fetchSize(limit)` rows a query fetched into a page, with the cursor after its last row. */
export function toPage<R>(
  rows: R[],
  limit: number,
  cursors: Cursors,
  scope: string,
  keyOf: (row: R) => KeyValue[],
): Page<R> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return {
    data,
    hasMore,
    nextCursor: hasMore && last !== undefined ? cursors.encode(scope, keyOf(last)) : null,
  };
}

export interface PagingQuery {
  limit?: number;
  cursor?: string;
  offset?: number;
}

/** What a list or search route needs to page: the request's page, and how to cut the rows it fetched. */
export interface Paging extends PageRequest {
  page<R>(rows: R[], keyOf: (row: R) => KeyValue[]): Page<R>;
}

/**
 * The one paging helper of list and search routes. The cursor is bound to the endpoint, the
 * workspace, the caller and the filter (another query's cursor is 400 invalid_cursor); the limit's
 * default comes from the LimitQuery schema; offset and cursor together are 400.
 */
export function openPaging(
  cursors: Cursors,
  auth: Auth,
  endpoint: string,
  filter: unknown,
  q: PagingQuery,
  arity: number,
): Paging {
  if (q.cursor !== undefined && q.offset !== undefined) {
    throw invalidRequest('/query/offset', 'offset cannot be combined with cursor');
  }
  const scope = JSON.stringify([endpoint, auth.workspace.id, auth.actor.id, filter ?? null]);
  const limit = q.limit ?? DEFAULT_LIMIT;
  return {
    limit,
    offset: q.offset,
    after: q.cursor !== undefined ? cursors.decode(scope, q.cursor, arity) : undefined,
    page: (rows, keyOf) => toPage(rows, limit, cursors, scope, keyOf),
  };
}
