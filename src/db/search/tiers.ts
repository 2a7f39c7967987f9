// Relevance with a bounded cost (docs/search.md), defined once for every search and both query forms
// (SQL conditions, FTS5 expressions). With matchMode=any and several text fields, rows that match
// every field come first (tier "all"), then rows that match some (tier "rest"); within a tier, the
// resource's own order. Each tier is its own indexed walk that stops after one page, so no query ever
// scores or sorts all matches. A cursor carries the tier it stopped in.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { KeyValue, Tiered } from '../keyset.ts';
import type { MatchMode } from './index.ts';

/** Which rows of a search: a relevance tier, or `matching` (every match: the total). */
export type Tier = 'all' | 'rest';
export type TierOrTotal = Tier | 'matching';

/** The tiers of a search with `fieldCount` text fields (0: one tier, every row). */
export function tiersFor(mode: MatchMode, fieldCount: number): Tier[] {
  return mode === 'any' && fieldCount > 1 ? ['all', 'rest'] : ['all'];
}

/** How a query form combines conditions. */
export interface Logic<C> {
  and(parts: C[]): C;
  or(parts: C[]): C;
  /** Rows meeting `a` and not `b` (b may be NULL in SQL: it counts as not met). */
  andNot(a: C, b: C): C;
}

/**
 * The condition of one tier, from one condition per field (null for a field that can match nothing,
 * such as a related name no visible object has). Null when the tier matches nothing.
 */
export function tierCondition<C>(
  logic: Logic<C>,
  fields: (C | null)[],
  mode: MatchMode,
  tier: TierOrTotal,
): C | null {
  const live = fields.filter((f): f is C => f !== null);
  const all = live.length === fields.length && live.length > 0 ? logic.and(live) : null;
  if (tiersFor(mode, fields.length).length === 1) return tier === 'rest' ? null : all;
  const some = live.length > 0 ? logic.or(live) : null;
  if (tier === 'all') return all;
  if (tier === 'rest') return some && all ? logic.andNot(some, all) : some;
  return some;
}

/** SQL conditions; a condition on a nullable column (project_id in …) is NULL, not false, for some rows. */
export const SQL_LOGIC: Logic<RawBuilder<SqlBool>> = {
  and: (parts) => sql<SqlBool>`(${sql.join(parts, sql` and `)})`,
  or: (parts) => sql<SqlBool>`(${sql.join(parts, sql` or `)})`,
  andNot: (a, b) => sql<SqlBool>`(${a} and not coalesce(${b}, false))`,
};

/**
 * Fills a page from the tiers in order, starting at the cursor's tier: `fetch(tier, afterKey, n)`
 * returns up to n rows of one tier after afterKey. Returns up to limit + 1 rows, each with its tier.
 */
export async function pageTiers<R>(
  tiers: Tier[],
  start: { tier: number; after?: KeyValue[] } | undefined,
  limit: number,
  fetch: (tier: Tier, after: KeyValue[] | undefined, n: number) => Promise<R[]>,
): Promise<Tiered<R>[]> {
  const out: Tiered<R>[] = [];
  for (let i = start?.tier ?? 0; i < tiers.length && out.length <= limit; i++) {
    const after = start && i === start.tier ? start.after : undefined;
    for (const row of await fetch(tiers[i]!, after, limit + 1 - out.length)) out.push({ row, tier: i });
  }
  return out;
}
