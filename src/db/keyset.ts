// Keyset pagination (docs/decisions.md §5). A resource declares its sort order once, as columns with the
// function that reads each column's value from a row; the cursor key, its arity, the "after this key"
// condition and the ORDER BY all follow from that one declaration. Searches with relevance tiers put
// the tier in front of the key (`tiered`).
import { type RawBuilder, type SqlBool, sql } from 'kysely';

export type KeyValue = string | number;

export interface OrderColumn<R> {
  /** A column reference such as "t.seq", on the alias the resource's queries use. */
  ref: string;
  dir: 'asc' | 'desc';
  /** The column's value in a row, as the cursor carries it. */
  key: (row: R) => KeyValue;
}

export interface Order<R> {
  readonly columns: readonly OrderColumn<R>[];
  /** How many values a cursor of this order carries. */
  readonly arity: number;
  /** The cursor key of a row. */
  keyOf(row: R): KeyValue[];
  /** Rows strictly after `key` in this order (any mix of directions). */
  after(key: KeyValue[]): RawBuilder<SqlBool>;
  /** The ORDER BY of a query. */
  // biome-ignore lint/suspicious/noExplicitAny: any Kysely select builder; each keeps its own type.
  apply<Q extends { orderBy(ref: any, dir: 'asc' | 'desc'): Q }>(query: Q): Q;
}

export function defineOrder<R>(columns: readonly OrderColumn<R>[]): Order<R> {
  return {
    columns,
    arity: columns.length,
    keyOf: (row) => columns.map((c) => c.key(row)),
    after(key) {
      const branches = columns.map((col, i) => {
        const equal = columns.slice(0, i).map((c, j) => sql`${sql.ref(c.ref)} = ${key[j]}`);
        const beyond = sql`${sql.ref(col.ref)} ${sql.raw(col.dir === 'desc' ? '<' : '>')} ${key[i]}`;
        return sql`(${sql.join([...equal, beyond], sql` and `)})`;
      });
      return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
    },
    apply(query) {
      let q = query;
      for (const c of columns) q = q.orderBy(sql.ref(c.ref), c.dir);
      return q;
    },
  };
}

/** A row of a tiered search and the relevance tier it was found in (db/search/tiers.ts). */
export interface Tiered<R> {
  row: R;
  tier: number;
}

/** The cursor of a tiered search: the tier, then the key of the order within it. */
export function tieredKey<R>(order: Order<R>): (r: Tiered<R>) => KeyValue[] {
  return (r) => [r.tier, ...order.keyOf(r.row)];
}

/** Where a tiered search starts: the tier and the key within it, from the request's cursor. */
export function tieredStart<R>(
  order: Order<R>,
  page: PageRequest,
): { tier: number; after: KeyValue[] } | undefined {
  const key = page.after(order.arity + 1);
  return key ? { tier: Number(key[0]), after: key.slice(1) } : undefined;
}

/** How many rows a page query fetches: one more than the page, to know whether more follow. */
export function fetchSize(limit: number): number {
  return limit + 1;
}

/** A page of a list or search: `limit` rows, and the cursor after the last when more follow. */
export interface Page<R> {
  data: R[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** How a page's `total` relates to the number of matches: equal, or greater than or equal. */
type TotalRelation = 'eq' | 'gte';

/** A count of matches as the API answers it (docs/api.md "Totals"). */
export interface Total {
  total: number;
  totalRelation: TotalRelation;
}

/**
 * A search with text counts its matches up to this many and then stops: an exact count of a common
 * word's matches visits each of them (a million tasks: hundreds of milliseconds on PostgreSQL).
 */
export const TEXT_TOTAL_CAP = 1000;

/** The total of `count` rows counted with `cap` (counting stopped after cap + 1), or exactly. */
export function totalOf(count: number, cap?: number): Total {
  return cap !== undefined && count > cap
    ? { total: cap, totalRelation: 'gte' }
    : { total: count, totalRelation: 'eq' };
}

/**
 * The page a request asks for (http/cursor.ts openPaging makes it). The list kit (listing.ts) reads
 * its cursor with the order of the listing it pages, and cuts the rows it fetched with that order's
 * key, so a route never needs to know the order.
 */
export interface PageRequest {
  limit: number;
  /** Rows to skip (lists only; never with a cursor). */
  offset?: number;
  /** The key of the last row of the previous page; a cursor without `arity` values is 400. */
  after(arity: number): KeyValue[] | undefined;
  /** The first `limit` of `fetchSize(limit)` fetched rows, with the cursor after the last one. */
  cut<R>(rows: R[], keyOf: (row: R) => KeyValue[]): Page<R>;
  /**
   * Told the page's rows as soon as they are known, where the total may take longer (a text search
   * on PostgreSQL counts up to 1,001 matches meanwhile): the search route starts presenting them.
   */
  rowsKnown?: (rows: unknown[]) => void;
}
