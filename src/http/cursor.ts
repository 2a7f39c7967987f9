// Opaque keyset cursors (decisions §5). A cursor carries the sort key of the last item of a page and a
// digest of the query that made it, signed with the instance's secret: a cursor edited by hand, or
// replayed against another query (other filters, another endpoint, another workspace), is 400
// invalid_cursor. The secret lives in the database so that every server process shares it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { AppError, invalid } from './errors.ts';

export type KeyValue = string | number;

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

export interface SortColumn {
  /** A column reference such as "g.updated_at". */
  ref: string;
  dir: 'asc' | 'desc';
}

/** Rows strictly after `key` in the order of `columns` (works for mixed directions). */
export function after(columns: SortColumn[], key: KeyValue[]): RawBuilder<SqlBool> {
  const branches: RawBuilder<unknown>[] = columns.map((col, i) => {
    const equal = columns.slice(0, i).map((c, j) => sql`${sql.ref(c.ref)} = ${key[j]}`);
    const beyond = sql`${sql.ref(col.ref)} ${sql.raw(col.dir === 'desc' ? '<' : '>')} ${key[i]}`;
    return sql`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
}

export interface PageInput {
  limit: number;
  cursor?: string;
  offset?: number;
}

export function checkPageInput(input: PageInput): void {
  if (input.cursor !== undefined && input.offset !== undefined) {
    throw invalid('/query/offset', 'offset cannot be combined with cursor');
  }
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Cuts the `limit + 1` rows a query fetched into a page, with the cursor after its last row. */
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
