// Relevance with a bounded cost (docs/search.md). With matchMode=any and several text fields, rows
// that match every field come first (tier 0), then rows that match some (tier 1); within a tier, most
// recently changed first. Each tier is its own indexed walk that stops after one page, so no query ever
// scores or sorts all matches. A cursor carries the tier it stopped in.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { MatchMode } from './index.ts';

export interface Tiers {
  /** The condition of each tier, in order; empty when nothing can match. */
  tiers: RawBuilder<SqlBool>[];
  /** Every match (for total), or null when there is no text condition at all. */
  matching: RawBuilder<SqlBool> | null;
}

const and = (parts: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
const or = (parts: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(parts, sql` or `)})`;

/** `fields` are per-field conditions; null for a field that can match nothing (no related ids). */
export function tiersOf(fields: (RawBuilder<SqlBool> | null)[], mode: MatchMode): Tiers {
  if (fields.length === 0) return { tiers: [sql<SqlBool>`1 = 1`], matching: null };
  const live = fields.filter((f): f is RawBuilder<SqlBool> => f !== null);
  const all = live.length === fields.length ? and(live) : null;
  if (mode === 'all' || fields.length === 1)
    return { tiers: all ? [all] : [], matching: all ?? sql<SqlBool>`1 = 0` };
  if (live.length === 0) return { tiers: [], matching: sql<SqlBool>`1 = 0` };
  const some = or(live);
  return {
    // coalesce: a field on a nullable column (project_id in …) is NULL, not false, and NOT NULL drops rows.
    tiers: all ? [all, sql<SqlBool>`(${some} and not coalesce(${all}, false))`] : [some],
    matching: some,
  };
}

/**
 * Fills a page from the tiers in order, starting at the cursor's tier: `fetch(tier, afterKey, n)`
 * returns up to n rows of one tier after afterKey. Returns up to limit + 1 rows, each with its tier.
 */
export async function pageTiers<R, K>(
  tierCount: number,
  start: { tier: number; after?: K } | undefined,
  limit: number,
  fetch: (tier: number, after: K | undefined, n: number) => Promise<R[]>,
): Promise<{ row: R; tier: number }[]> {
  const out: { row: R; tier: number }[] = [];
  for (let tier = start?.tier ?? 0; tier < tierCount && out.length <= limit; tier++) {
    const after = start && tier === start.tier ? start.after : undefined;
    for (const row of await fetch(tier, after, limit + 1 - out.length)) out.push({ row, tier });
  }
  return out;
}
