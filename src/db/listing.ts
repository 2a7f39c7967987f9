// The list-and-search kit. A resource plugs in by declaring, once, in its repository:
// - its order (keyset.ts: defineOrder), from which cursors and keyset conditions follow;
// - how to fetch a page and a count of its rows under a set of SQL conditions (`Listing`);
// and, in its module, its visibility rule (a `VisibilityRule`: one policy giving the check, the SQL
// conditions and the search-index exclusions) and, when it is searchable, its search index
// (search/index.ts: plainIndex or taggedIndex). `listPage` and `searchPage` then do the rest the same
// way for every resource: keyset or offset pages of limit + 1 rows, relevance tiers, totals (a text
// search's counted up to a cap).
import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import {
  fetchSize,
  type KeyValue,
  type Order,
  type Page,
  type PageRequest,
  TEXT_TOTAL_CAP,
  type Tiered,
  type Total,
  tieredKey,
  tieredStart,
  totalOf,
} from './keyset.ts';
import type { Exclusion } from './search/fts5.ts';
import type { MatchMode } from './search/index.ts';
import { pageTiers, SQL_LOGIC, tierCondition, tiersFor } from './search/tiers.ts';
import type { DB } from './types.ts';

export type Condition = RawBuilder<SqlBool>;

/** The condition no row meets: an `in` over an empty set, which SQL cannot spell. */
export const NOTHING: Condition = sql<SqlBool>`1 = 0`;

export interface Listing<R> {
  order: Order<R>;
  /** Up to `n` rows meeting every condition, in `order`, strictly after `after`, skipping `offset`. */
  page(
    db: Kysely<DB>,
    workspaceId: string,
    where: Condition[],
    after: KeyValue[] | undefined,
    n: number,
    offset?: number,
  ): Promise<R[]>;
  /** How many rows meet every condition; with `cap`, stops counting after cap + 1 of them. */
  count(db: Kysely<DB>, workspaceId: string, where: Condition[], cap?: number): Promise<number>;
}

// biome-ignore lint/suspicious/noExplicitAny: a select on any one table; the Listing's R types its rows.
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * The Listing of one table: `from` selects the workspace's rows of it under the alias the order and
 * the conditions use (`db.selectFrom('projects as p').where('p.workspace_id', '=', ws)`).
 */
export function tableListing<R>(
  order: Order<R>,
  from: (db: Kysely<DB>, workspaceId: string) => AnySelect,
  columns: readonly string[],
): Listing<R> {
  const where = (db: Kysely<DB>, workspaceId: string, conditions: Condition[]) => {
    let q = from(db, workspaceId);
    for (const c of conditions) q = q.where(c);
    return q;
  };
  return {
    order,
    page(db, workspaceId, conditions, after, n, offset = 0) {
      let q = where(db, workspaceId, conditions).select(columns);
      if (after) q = q.where(order.after(after));
      return order.apply(q).offset(offset).limit(n).execute() as Promise<R[]>;
    },
    async count(db, workspaceId, conditions, cap) {
      const matching = where(db, workspaceId, conditions);
      const counted =
        cap === undefined
          ? matching.select((eb) => eb.fn.countAll().as('n'))
          : db
              .selectFrom(
                matching
                  .select(sql`1`.as('one'))
                  .limit(cap + 1)
                  .as('m'),
              )
              .select((eb) => eb.fn.countAll().as('n'));
      const row = await counted.executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

/**
 * Who sees which rows of a resource, as one rule in three forms: the check of one row (the policy),
 * SQL conditions for lists, searches and totals (empty when the caller sees everything), and, for a
 * tagged search index, the exclusions of the same rows.
 */
export interface VisibilityRule<Facts> {
  sees(facts: Facts): boolean;
  where: Condition[];
  exclude?: Exclusion[];
}

/** The groups (teams and areas) a caller sees: groups/lookup.ts groupVisibility. */
export interface VisibleGroups {
  /** The caller sees every group. */
  all: boolean;
  visible: Set<string>;
  invisible: string[];
}

/** The policy's half of "a row of a group the caller sees": whether the caller sees `groupId`. */
export function seesGroup(groups: Pick<VisibleGroups, 'all' | 'visible'>, groupId: string): boolean {
  return groups.all || groups.visible.has(groupId);
}

/**
 * "A row of a group the caller sees", for a resource whose rows each belong to one group (tasks,
 * documents, task templates; project templates by their owning area), in the forms besides the
 * policy's check (seesGroup): SQL conditions from `inGroups` (the resource's repository: its group
 * column in a set of ids, on its own alias), and the groups whose rows a search index must leave out
 * (`hidden`). Without conditions when the caller sees every group.
 */
export function groupRowRule(groups: VisibleGroups, inGroups: (ids: string[]) => Condition) {
  return {
    where: groups.all ? [] : [groups.visible.size > 0 ? inGroups([...groups.visible]) : NOTHING],
    hidden: groups.all ? [] : groups.invisible,
  };
}

export interface ListContext {
  db: Kysely<DB>;
  workspace: { id: string };
}

/**
 * A page of a list, cut with the listing's order, and its total when asked for: exact, or counted up
 * to `cap` when given (a list whose conditions match text: the teams' search).
 */
export async function listPage<R>(
  ctx: ListContext,
  listing: Listing<R>,
  where: Condition[],
  page: PageRequest,
  withTotal: boolean,
  cap?: number,
): Promise<Page<R> & Partial<Total>> {
  const ws = ctx.workspace.id;
  const after = page.after(listing.order.arity);
  const [rows, count] = await Promise.all([
    listing.page(ctx.db, ws, where, after, fetchSize(page.limit), page.offset),
    withTotal ? listing.count(ctx.db, ws, where, cap) : undefined,
  ]);
  const cut = page.cut(rows, listing.order.keyOf);
  return count === undefined ? cut : { ...cut, ...totalOf(count, cap) };
}

/**
 * The first `limit` rows of a list in the listing's order, for the lists whose interface has no
 * cursor or total (task and project templates: `{data}` only).
 */
export function firstRows<R>(
  ctx: ListContext,
  listing: Listing<R>,
  where: Condition[],
  limit: number,
): Promise<R[]> {
  return listing.page(ctx.db, ctx.workspace.id, where, undefined, limit);
}

export interface SearchRequest {
  /** One condition per searched field; null for a field that can match nothing. None: no text. */
  fields: (Condition | null)[];
  mode: MatchMode;
  /** Conditions every result meets (visibility, id filters, deleted and archived flags). */
  where: Condition[];
}

/**
 * A page of a search in relevance tiers (search/tiers.ts), with the total of matches: counted up to
 * TEXT_TOTAL_CAP when the search has text fields, exactly when it has only filters.
 */
export async function searchPage<R>(
  ctx: ListContext,
  listing: Listing<R>,
  s: SearchRequest,
  page: PageRequest,
): Promise<Page<Tiered<R>> & Total> {
  const ws = ctx.workspace.id;
  const tiers = tiersFor(s.mode, s.fields.length);
  const cap = s.fields.length > 0 ? TEXT_TOTAL_CAP : undefined;
  const conditionOf = (tier: Parameters<typeof tierCondition>[3]): Condition[] | null => {
    if (s.fields.length === 0) return s.where;
    const c = tierCondition(SQL_LOGIC, s.fields, s.mode, tier);
    return c === null ? null : [...s.where, c];
  };
  const matching = conditionOf('matching');
  const [rows, total] = await Promise.all([
    pageTiers(tiers, tieredStart(listing.order, page), page.limit, async (tier, after, n) => {
      const where = conditionOf(tier);
      return where ? listing.page(ctx.db, ws, where, after, n) : [];
    }),
    matching ? listing.count(ctx.db, ws, matching, cap) : 0,
  ]);
  return { ...page.cut(rows, tieredKey(listing.order)), ...totalOf(total, cap) };
}
