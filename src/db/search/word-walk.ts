// PostgreSQL's search of a tagged target (tasks) at scale: a page walks the matches of one word,
// newest first, instead of the whole change order.
//
// The planner's way, the table's `(workspace_id, seq)` index newest first with each row's tsvector
// tested, costs one row per task between two matches: fine while a word is spread evenly, but after a
// burst of writes without it (40,000 new tasks) every page reads the burst first (~200 ms). GIN finds
// the matches but in no order, so a common word costs all of its matches. The words table (migration
// 0011: `(term, seq)`, kept by triggers) is both: the rows of one word, already in seq order. So, as
// SQLite does with `tasks_fts_terms` (fts5.ts):
// 1. each query word is expanded into the indexed words it is a prefix of (a range of the terms
//    table's key, at most MAX_TERMS);
// 2. each tier (tiers.ts) gets a driver: a set of exact words whose rows include every row the tier
//    can match. A conjunction needs one field's one word (the smallest), a disjunction every field's;
// 3. the page walks the driver's rows newest first (a merge of index ranges), joins each to its row
//    and keeps those meeting the same SQL conditions as before: the text conditions (tsvector @@
//    prefixes), filters and visibility. The driver only narrows which rows are read; what matches is
//    decided as it always was, so the answers are the same. Where every row of the driver meets the
//    text conditions (one query word a field, `drivesAlone`), they are left out. Whether a task is
//    deleted is in the words table too (`live`, migration 0019), so with nothing else to test (an
//    owner's search of one word a field) the walk reads the words alone, from the key's index;
// 4. a tier without a driver (a related-name field in a disjunction; a prefix of too many words)
//    is asked as before, and the planner chooses.
import { type RawBuilder, sql } from 'kysely';
import {
  type KeyValue,
  type Page,
  type PageRequest,
  TEXT_TOTAL_CAP,
  type Tiered,
  type Total,
  tieredKey,
  tieredStart,
  totalOf,
} from '../keyset.ts';
import type { Condition } from '../listing.ts';
import type { TaggedListContext, TaggedSource } from './fts5.ts';
import type { MatchMode } from './index.ts';
import { pageTiers, SQL_LOGIC, type TierOrTotal, tierCondition, tiersFor } from './tiers.ts';

/** A field of a words search: a text field's words, or a condition (related names; null: none). */
type WordField = { field: string; words: string[]; condition: Condition } | { condition: Condition | null };

/** A search answered by walking word rows (TsvectorProvider.taggedPage). */
export interface WordSearch {
  fields: WordField[];
  mode: MatchMode;
  /** Filters and visibility, on the source's alias. */
  where: Condition[];
  /**
   * The condition that keeps live rows only (not deleted), or null for deleted rows too. A walk reads
   * it from the words table's `live` (migration 0019) rather than from the row.
   */
  live: Condition | null;
}

/** A prefix of more indexed words than this has no driver (the planner's plan instead). */
const MAX_TERMS = 64;

/**
 * Below this many rows a candidate is counted exactly when choosing a conjunction's driver. The count
 * is on the page's path (in the statement that expands the word), and right after a burst of writes
 * its index entries are not yet all-visible (each one a visit to the table): at 1,000 it cost 11 ms
 * for two common words; at 200, about 2.
 */
const SMALL = 200;

/** One exact word of one field (a term): a range of the words table's key, in seq order. */
interface Key {
  term: number;
  field: number;
  word: string;
}

/** A query word's keys, and their rows counted up to SMALL when a driver is to be chosen among several. */
interface Candidate {
  keys: Key[];
  rows: number;
}

/** The rows a tier can match are all among the rows of these keys (null: no driver). */
type Driver = Key[] | null;

export async function wordPage<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  s: WordSearch,
  page: PageRequest,
): Promise<Page<Tiered<R>> & Total> {
  const { order } = source.listing;
  if (order.columns.length !== 1) throw new Error('A tagged listing is ordered by its seq alone');
  const candidates = await fieldCandidates(ctx, source, s);
  const tiers = tiersFor(s.mode, s.fields.length);
  const conditions = s.fields.map((f) => f.condition);
  // Every field (one tier, or the first of two) or some field (the second tier, and the total of two).
  const every = smallest(candidates.flat());
  const some = eachField(candidates);
  const tier = (t: TierOrTotal): Walked | null => {
    const condition = tierCondition(SQL_LOGIC, conditions, s.mode, t);
    if (condition === null) return null;
    const driver = tiers.length === 1 || t === 'all' ? every : some;
    const where = driver !== null && drivesAlone(s, t) ? s.where : [...s.where, condition];
    return { where, live: s.live, driver };
  };
  const matching = tier('matching');
  // The page is cut as soon as its rows are known, while the total may still be counting (a common
  // word's count of up to 1,001 can take longer than the page and its presentation, which the search
  // route starts on rowsKnown).
  const [cut, total] = await Promise.all([
    pageTiers(tiers, tieredStart(order, page), page.limit, async (t, after, n) => {
      const q = tier(t);
      return q ? tierRows(ctx, source, q, after?.[0], n) : [];
    }).then((rows) => {
      const cut = page.cut(rows, tieredKey(order));
      page.rowsKnown?.(cut.data.map((hit) => hit.row));
      return cut;
    }),
    matching ? countUpTo(ctx, source, matching, TEXT_TOTAL_CAP) : 0,
  ]);
  return { ...cut, ...totalOf(total, TEXT_TOTAL_CAP) };
}

/**
 * What a tier walks: its driver's rows (live ones only, unless `live` is null), each tested with
 * `where`. Where the driver's rows meet the tier's text condition by themselves, `where` leaves it
 * out; when `where` is then empty (an owner's search), a walk does not read the row at all.
 */
interface Walked {
  where: Condition[];
  live: Condition | null;
  driver: Driver;
}

/**
 * Whether every row of the tier's driver meets its text condition: each field is one query word, a
 * row under one of its keys holds an indexed word that query word is a prefix of, and the tier asks
 * for that field (one field) or for any field (the total of `any`, whose driver is every field's).
 */
function drivesAlone(s: WordSearch, t: TierOrTotal): boolean {
  if (!s.fields.every((f) => 'words' in f && f.words.length === 1)) return false;
  return s.fields.length === 1 || (s.mode === 'any' && t === 'matching');
}

/**
 * Each field's candidate drivers: for a text field, one per word (all of a field's words must
 * match, so any one of them will do), its exact words; nothing for a condition field. Their rows are
 * counted when there is a choice to make (more than one query word in all).
 */
async function fieldCandidates<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  s: WordSearch,
): Promise<Candidate[][]> {
  const words = s.fields.reduce((n, f) => n + ('words' in f ? f.words.length : 0), 0);
  const count = words > 1 ? { live: s.live !== null } : null;
  return Promise.all(
    s.fields.map(async (f) => {
      if (!('words' in f)) return [];
      const field = source.target.fields.indexOf(f.field);
      const expanded = await Promise.all(f.words.map((w) => expand(ctx, source, field, w, count)));
      return expanded.filter((c): c is Candidate => c !== null);
    }),
  );
}

/**
 * The driver of a disjunction (some field): one candidate of each field, together; none when a
 * field has none. (A conjunction's is the smallest candidate of any field.)
 */
function eachField(fields: Candidate[][]): Driver {
  if (fields.some((candidates) => candidates.length === 0)) return null;
  const chosen = fields.map((candidates) => smallest(candidates));
  return chosen.every((d) => d !== null) ? chosen.flat() : null;
}

/**
 * The candidate with the fewest rows (each counted up to SMALL). When all have more, the first
 * field's (names are shorter than descriptions, so a word is rarer there), then the longest word (the
 * longer, the rarer, as a rule).
 */
function smallest(candidates: Candidate[]): Driver {
  if (candidates.length <= 1) return candidates[0]?.keys ?? null;
  // A word no row has: the conjunction matches nothing.
  const empty = candidates.find((c) => c.keys.length === 0);
  if (empty) return empty.keys;
  // Fewest rows, then the first field, then the longest word (a candidate's shortest expansion).
  const rank = candidates.map(({ keys, rows }) => ({
    keys,
    rows,
    field: keys[0]!.field,
    length: Math.min(...keys.map((k) => k.word.length)),
  }));
  rank.sort((a, b) => a.rows - b.rows || a.field - b.field || b.length - a.length);
  return rank[0]!.keys;
}

/**
 * The indexed words of `field` that `word` is a prefix of, as keys; null when there are more than
 * MAX_TERMS. (A word holds only letters and digits, so nothing sorts after `word` + U+10FFFF.) With
 * `count`, the same statement counts their rows (live ones, or all), up to SMALL.
 */
async function expand<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  field: number,
  word: string,
  count: { live: boolean } | null,
): Promise<Candidate | null> {
  const { terms, words } = source.target;
  const rowsOf = count
    ? sql`(select count(*) from (select 1 from ${sql.table(words)} w where w.term in (select id from e)
        ${count.live ? sql`and w.live` : sql``} limit ${SMALL}) c)`
    : sql`0`;
  const { rows } = await sql<{ id: number; word: string; rows: string }>`with e as (
      select id, word from ${sql.table(terms)}
      where workspace_code = ${ctx.workspace.code} and field = ${field}
      and word >= ${word} and word < ${`${word}\u{10FFFF}`}
      order by word limit ${MAX_TERMS + 1})
    select id, word, ${rowsOf} as rows from e order by word`.execute(ctx.db);
  if (rows.length > MAX_TERMS) return null;
  const keys = rows.map((r) => ({ term: Number(r.id), field, word: r.word }));
  return { keys, rows: Number(rows[0]?.rows ?? 0) };
}

/**
 * Up to n seqs of rows meeting `where`, after `after`, in the listing's order, as one statement: each
 * key's rows walked in order (its live rows, and its deleted ones when those are asked for: two ranges
 * of the words table's key), each joined to its row and tested, and stopped after n (so each walk is
 * the plan of one index range and a nested loop, whatever the statistics say); the walks merged, and
 * the first n distinct seqs kept. PostgreSQL merges limited, ordered walks lazily (Merge Append,
 * Unique), so a walk past the page is not read. A row under two keys (a task with `plan` and
 * `planning`; one matching both fields) comes from each of their walks; no walk holds a seq twice, so
 * a seq past a walk's first n has n others before it, and the first n distinct are all within them.
 * A walk with nothing of the row to test reads the words alone: a term is of one workspace, the one
 * whose terms `expand` read.
 */
function walk<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  { driver: keys, where, live }: Walked & { driver: Key[] },
  after: KeyValue | undefined,
  n: number,
): RawBuilder<unknown> {
  const { target, alias } = source;
  const desc = source.listing.order.columns[0]!.dir === 'desc';
  const direction = sql.raw(desc ? 'desc' : 'asc');
  const beyond = after === undefined ? sql`` : sql`and w.seq ${sql.raw(desc ? '<' : '>')} ${after}`;
  const row =
    where.length === 0
      ? sql``
      : sql`cross join lateral (select 1 from ${sql.table(target.table)} ${sql.raw(alias)}
        where ${sql.ref(`${alias}.workspace_id`)} = ${ctx.workspace.id} and ${sql.ref(`${alias}.seq`)} = w.seq
        and ${sql.join(where, sql` and `)} offset 0) x`;
  const states = live === null ? ['true', 'false'] : ['true'];
  const walks = keys.flatMap((k) =>
    states.map(
      (state) => sql`(select w.seq from ${sql.table(target.words)} w ${row}
        where w.term = ${k.term} and w.live = ${sql.raw(state)} ${beyond}
        order by w.seq ${direction} limit ${n})`,
    ),
  );
  return sql`select distinct seq from (${sql.join(walks, sql` union all `)}) d order by seq ${direction} limit ${n}`;
}

/** A tier's conditions on the row itself, for the planner's way (no driver). */
function rowConditions({ where, live }: Walked): Condition[] {
  return live === null ? where : [...where, live];
}

/** Up to n of the tier's rows, after `after`, in the listing's order. */
async function tierRows<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  walked: Walked,
  after: KeyValue | undefined,
  n: number,
): Promise<R[]> {
  const { driver } = walked;
  const { order } = source.listing;
  if (driver === null) {
    const at = after === undefined ? undefined : [after];
    return source.listing.page(ctx.db, ctx.workspace.id, rowConditions(walked), at, n);
  }
  if (driver.length === 0) return [];
  // The walk and its rows in one statement; the rows come in no order.
  const rows = await source.bySeq(
    ctx.db,
    ctx.workspace.id,
    walk(ctx, source, { ...walked, driver }, after, n),
  );
  const seqOf = (row: R) => Number(order.keyOf(row)[0]);
  const sign = order.columns[0]!.dir === 'desc' ? -1 : 1;
  return rows.sort((a, b) => sign * (seqOf(a) - seqOf(b)));
}

/** How many of the tier's rows there are, counting no further than cap + 1. */
async function countUpTo<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  walked: Walked,
  cap: number,
): Promise<number> {
  const { driver } = walked;
  if (driver === null) return source.listing.count(ctx.db, ctx.workspace.id, rowConditions(walked), cap);
  if (driver.length === 0) return 0;
  const { rows } = await sql<{ n: string }>`select count(*) as n from
    (${walk(ctx, source, { ...walked, driver }, undefined, cap + 1)}) m`.execute(ctx.db);
  return Number(rows[0]?.n ?? 0);
}
