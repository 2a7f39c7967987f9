// SQLite: one contentless FTS5 table per target (contentless_delete lets a row be replaced by rowid).
// The 'ascii' tokenizer splits only on ASCII non-alphanumerics and the stored text is folded words
// joined by spaces, so FTS5's tokens are exactly our words. A query word w becomes the prefix query
// "w"*; words hold only letters and digits, so quoting cannot be escaped.
//
// Tagged targets (tasks) are built for a million rows. Counting the matches of a common word is cheap
// inside FTS5 but costs a table lookup per match once filters need the row (measured: 6 ms vs 45 ms
// for 65,000 matches), so filters live in the index too:
// - every word and tag is prefixed with the workspace's fixed-width code, so a query only ever reads
//   its own workspace's terms;
// - the row's rare states and relations are tokens in a `tags` column (deleted, private, team,
//   project, creator, assignee), and common states are expressed by subtracting the rare ones with
//   NOT, because AND with a token present in most rows walks that whole list (measured: 42 ms).
import { CompiledQuery, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
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
import type { Condition, ListContext, Listing } from '../listing.ts';
import type { DB } from '../types.ts';
import { distinctWords } from './fold.ts';
import type {
  Entry,
  FieldQuery,
  Fts5Provider,
  MatchMode,
  PlainTarget,
  SearchColumns,
  SearchTarget,
  TaggedRow,
  TaggedTarget,
} from './index.ts';
import { type Logic, pageTiers, type TierOrTotal, tierCondition, tiersFor } from './tiers.ts';

function workspacePrefix(code: number): string {
  return code.toString(36).padStart(6, '0');
}

function phrase(prefix: string, field: string, word: string, prefixMatch: boolean): string {
  return `${field} : "${prefix}${word}"${prefixMatch ? '*' : ''}`;
}

function fieldExpression(q: FieldQuery, prefix = ''): string {
  return `(${q.words.map((w) => phrase(prefix, q.field, w, true)).join(' AND ')})`;
}

export class Fts5Search implements Fts5Provider {
  readonly kind = 'fts5';

  /** The index is its own table: the row holds nothing of it. */
  rowColumns(): SearchColumns {
    return {};
  }

  write(db: Kysely<DB>, target: PlainTarget, entry: Entry): Promise<void>;
  write(db: Kysely<DB>, target: TaggedTarget, entry: Entry<TaggedRow>): Promise<void>;
  async write(db: Kysely<DB>, target: SearchTarget, entry: Entry | Entry<TaggedRow>): Promise<void> {
    const rowid = entry.row.previousSeq ?? entry.row.seq;
    await sql`delete from ${sql.table(target.fts)} where rowid = ${rowid}`.execute(db);
    await this.#insert(db, target, [entry]);
  }

  writeNew(db: Kysely<DB>, target: PlainTarget, entries: Entry[]): Promise<void>;
  writeNew(db: Kysely<DB>, target: TaggedTarget, entries: Entry<TaggedRow>[]): Promise<void>;
  async writeNew(db: Kysely<DB>, target: SearchTarget, entries: (Entry | Entry<TaggedRow>)[]): Promise<void> {
    await this.#insert(db, target, entries);
  }

  // Built as SQL text with a placeholder per value rather than through Kysely's builder: a batch of
  // 500 tasks is 2,000 values, and a bulk load (seed, import) writes hundreds of batches.
  async #insert(db: Kysely<DB>, target: SearchTarget, entries: (Entry | Entry<TaggedRow>)[]): Promise<void> {
    if (entries.length === 0) return;
    const columns = [...target.fields, ...(target.tagged ? ['tags'] : [])];
    const params: unknown[] = [];
    const terms = new Set<string>();
    for (const { row, texts } of entries) {
      const tagged = target.tagged ? (row as TaggedRow) : null;
      const prefix = tagged ? workspacePrefix(tagged.workspaceCode) : '';
      params.push(row.seq);
      for (const f of target.fields) {
        const words = distinctWords(texts[f]).map((w) => prefix + w);
        params.push(words.join(' '));
        // Tagged targets keep the set of words ever indexed, for prefix expansion (expandPrefixes).
        if (tagged) for (const w of words) terms.add(w);
      }
      if (tagged) params.push(tagged.tags.map((t) => prefix + t).join(' '));
    }
    const tuple = `(${['?', ...columns.map(() => '?')].join(', ')})`;
    await db.executeQuery(
      CompiledQuery.raw(
        `insert into "${target.fts}" (rowid, ${columns.map((c) => `"${c}"`).join(', ')}) values ${Array.from(
          entries,
          () => tuple,
        ).join(', ')}`,
        params,
      ),
    );
    const list = [...terms];
    for (let i = 0; i < list.length; i += 500) {
      const some = list.slice(i, i + 500);
      await db.executeQuery(
        CompiledQuery.raw(
          `insert or ignore into "${target.fts}_terms" (term) values ${some.map(() => '(?)').join(', ')}`,
          some,
        ),
      );
    }
  }

  matches(target: PlainTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool> {
    const expression = queries.map((q) => fieldExpression(q)).join(mode === 'all' ? ' AND ' : ' OR ');
    return sql<SqlBool>`${sql.ref(`${alias}.seq`)} in (select rowid from ${sql.table(target.fts)} where ${sql.table(target.fts)} match ${expression})`;
  }

  taggedPage<R>(
    ctx: TaggedListContext,
    source: TaggedSource<R>,
    s: TaggedSearch,
    page: PageRequest,
  ): Promise<Page<Tiered<R>> & Total> {
    return taggedPage(ctx, source, s, page);
  }
}

/**
 * One "field" of a tagged query: words in an FTS column, or any of a set of tags (related names).
 * `terms` (from expandPrefixes) lists, per word, the indexed words it is a prefix of.
 */
type TaggedField = { field: string; words: string[]; terms?: (string[] | null)[] } | { tags: string[] };

/** A prefix with more indexed words than this is asked as an FTS5 prefix query instead. */
const MAX_TERMS = 64;

/**
 * FTS5 reads a prefix query's matches all at once before it can return the first (10 ms for a word
 * in 14 % of a million rows), but walks an exact word lazily (0.1 ms for a page). So each query word
 * is first expanded into the indexed words it is a prefix of, from `<fts>_terms`, a B-tree range
 * scan; the page then asks for those exact words. Null for a word with too many (the prefix query).
 */
async function expandPrefixes(
  db: Kysely<DB>,
  target: TaggedTarget,
  workspaceCode: number,
  words: string[],
): Promise<(string[] | null)[]> {
  const prefix = workspacePrefix(workspaceCode);
  return Promise.all(
    words.map(async (w) => {
      const from = prefix + w;
      const { rows } = await sql<{ term: string }>`select term from ${sql.table(`${target.fts}_terms`)}
        where term >= ${from} and term < ${`${from}\u{10FFFF}`} limit ${MAX_TERMS + 1}`.execute(db);
      return rows.length > MAX_TERMS ? null : rows.map((r) => r.term.slice(prefix.length));
    }),
  );
}

/** Excludes rows tagged `tag`, unless they also carry one of `unless`. */
export interface Exclusion {
  tag: string;
  unless?: string[];
}

interface TaggedQuery {
  workspaceCode: number;
  fields: TaggedField[];
  mode: MatchMode;
  /** AND of (OR of tags). */
  require: string[][];
  exclude: Exclusion[];
}

const MATCH_LOGIC: Logic<string> = {
  and: (parts) => parts.join(' AND '),
  or: (parts) => parts.join(' OR '),
  andNot: (a, b) => `(${a}) NOT (${b})`,
};

/** The FTS5 MATCH expression of one tier of a tagged query (or of its total), or null when nothing can match. */
function taggedMatch(q: TaggedQuery, tier: TierOrTotal): string | null {
  const prefix = workspacePrefix(q.workspaceCode);
  const anyOf = (tags: string[]) => `(${tags.map((t) => phrase(prefix, 'tags', t, false)).join(' OR ')})`;
  const fields = q.fields.map((f) => {
    if (!('words' in f)) return f.tags.length > 0 ? anyOf(f.tags) : null;
    const parts = f.words.map((w, i) => {
      const terms = f.terms?.[i];
      if (terms === undefined || terms === null) return phrase(prefix, f.field, w, true);
      return terms.length > 0
        ? `(${terms.map((t) => phrase(prefix, f.field, t, false)).join(' OR ')})`
        : null;
    });
    return parts.includes(null) ? null : `(${parts.join(' AND ')})`;
  });
  const text = tierCondition(MATCH_LOGIC, fields, q.mode, tier);
  if (text === null) return null;
  if (q.require.some((r) => r.length === 0)) return null;
  const positive = [`(${text})`, ...q.require.map(anyOf)].join(' AND ');
  const negative = q.exclude.map((e) =>
    e.unless && e.unless.length > 0
      ? `(${phrase(prefix, 'tags', e.tag, false)} NOT ${anyOf(e.unless)})`
      : phrase(prefix, 'tags', e.tag, false),
  );
  return negative.length > 0 ? `(${positive}) NOT (${negative.join(' OR ')})` : positive;
}

/**
 * What a tagged search finds: the target's index, and the listing of its table whose rows it
 * answers with. The listing's order must be the row's seq alone, the index's rowid, so that a page
 * is a walk of the index in that order; `alias` is the listing's, for the conditions on the row.
 * `bySeq` reads a page's rows (in any order) once the index has found them.
 */
export interface TaggedSource<R> {
  target: TaggedTarget;
  listing: Listing<R>;
  alias: string;
  /** By their seqs, or by a statement that gives them (PostgreSQL's word walks: one round trip). */
  bySeq(db: Kysely<DB>, workspaceId: string, seqs: number[] | RawBuilder<unknown>): Promise<R[]>;
}

/** A tagged search: its fields (words, or related tags) and the filters the index carries. */
export interface TaggedSearch {
  fields: ({ field: string; words: string[] } | { tags: string[] })[];
  mode: MatchMode;
  /** AND of (OR of tags). */
  require: string[][];
  exclude: Exclusion[];
  /** Conditions on the row itself (on the source's alias), which the index does not carry. */
  where: Condition[];
}

export interface TaggedListContext extends ListContext {
  workspace: { id: string; code: number };
}

/**
 * A page of a tagged search in relevance tiers and the total of its matches, from the index alone;
 * only the rows of the page, and `where` conditions when there are any, touch the table.
 */
async function taggedPage<R>(
  ctx: TaggedListContext,
  source: TaggedSource<R>,
  s: TaggedSearch,
  page: PageRequest,
): Promise<Page<Tiered<R>> & Total> {
  const { order } = source.listing;
  if (order.columns.length !== 1) throw new Error('A tagged listing is ordered by its seq alone');
  const fields = await Promise.all(
    s.fields.map(async (f) =>
      'words' in f
        ? { ...f, terms: await expandPrefixes(ctx.db, source.target, ctx.workspace.code, f.words) }
        : f,
    ),
  );
  const query: TaggedQuery = { ...s, workspaceCode: ctx.workspace.code, fields };
  const found = await pageTiers(
    tiersFor(s.mode, fields.length),
    tieredStart(order, page),
    page.limit,
    async (tier, after, n) => {
      const match = taggedMatch(query, tier);
      return match ? rowidPage(ctx.db, source, match, after?.[0], n, s.where) : [];
    },
  );
  const bySeq = await rowsBySeq(
    ctx,
    source,
    found.map((f) => f.row),
  );
  const rows = found.flatMap(({ row: seq, tier }) => {
    const row = bySeq.get(seq);
    return row ? [{ row, tier }] : [];
  });
  const all = taggedMatch(query, 'matching');
  const total = all ? await rowidCount(ctx.db, source, all, s.where, TEXT_TOTAL_CAP) : 0;
  return { ...page.cut(rows, tieredKey(order)), ...totalOf(total, TEXT_TOTAL_CAP) };
}

/** The rowids (seqs) of up to n matches after `after`, in the listing's order. */
async function rowidPage<R>(
  db: Kysely<DB>,
  source: TaggedSource<R>,
  match: string,
  after: KeyValue | undefined,
  n: number,
  where: Condition[],
): Promise<number[]> {
  const rowid = sql.ref(`${source.target.fts}.rowid`);
  const desc = source.listing.order.columns[0]!.dir === 'desc';
  const beyond = after === undefined ? sql`` : sql`and ${rowid} ${sql.raw(desc ? '<' : '>')} ${after}`;
  const { rows } = await sql<{ rowid: number }>`select ${rowid} as rowid from ${sql.table(source.target.fts)}
    ${joined(source, where)} where ${sql.table(source.target.fts)} match ${match} ${beyond} ${alsoWhere(where)}
    order by ${rowid} ${sql.raw(desc ? 'desc' : 'asc')} limit ${n}`.execute(db);
  return rows.map((r) => Number(r.rowid));
}

async function rowidCount<R>(
  db: Kysely<DB>,
  source: TaggedSource<R>,
  match: string,
  where: Condition[],
  cap: number,
): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from (select 1 from ${sql.table(source.target.fts)}
    ${joined(source, where)} where ${sql.table(source.target.fts)} match ${match} ${alsoWhere(where)}
    limit ${cap + 1})`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

// The table is joined (under the listing's alias) only when a condition needs the row: the index
// alone answers the rest. Every rowid is qualified, since the table has a rowid of its own.
function joined<R>(source: TaggedSource<R>, where: Condition[]) {
  if (where.length === 0) return sql``;
  const { target, alias } = source;
  return sql`join ${sql.table(target.table)} ${sql.raw(alias)} on ${sql.ref(`${alias}.seq`)} = ${sql.ref(`${target.fts}.rowid`)}`;
}

function alsoWhere(where: Condition[]) {
  return where.length === 0 ? sql`` : sql`and ${sql.join(where, sql` and `)}`;
}

/** The page's rows by seq (the key of the listing's order). */
async function rowsBySeq<R>(
  ctx: ListContext,
  source: TaggedSource<R>,
  seqs: number[],
): Promise<Map<number, R>> {
  if (seqs.length === 0) return new Map();
  const rows = await source.bySeq(ctx.db, ctx.workspace.id, seqs);
  return new Map(rows.map((r) => [Number(source.listing.order.keyOf(r)[0]), r]));
}
