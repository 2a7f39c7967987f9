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
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../types.ts';
import { distinctWords } from './fold.ts';
import type { FieldQuery, IndexedRow, MatchMode, SearchProvider, SearchTarget } from './index.ts';

export function workspacePrefix(code: number): string {
  return code.toString(36).padStart(6, '0');
}

function phrase(prefix: string, field: string, word: string, prefixMatch: boolean): string {
  return `${field} : "${prefix}${word}"${prefixMatch ? '*' : ''}`;
}

function fieldExpression(q: FieldQuery, prefix = ''): string {
  return `(${q.words.map((w) => phrase(prefix, q.field, w, true)).join(' AND ')})`;
}

export class Fts5Search implements SearchProvider {
  readonly kind = 'fts5';

  async write(
    db: Kysely<DB>,
    target: SearchTarget,
    row: IndexedRow,
    texts: Record<string, string | null>,
  ): Promise<void> {
    await sql`delete from ${sql.table(target.fts)} where rowid = ${row.previousSeq ?? row.seq}`.execute(db);
    await this.writeNew(db, target, [{ row, texts }]);
  }

  async writeNew(
    db: Kysely<DB>,
    target: SearchTarget,
    rows: { row: IndexedRow; texts: Record<string, string | null> }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const columns = [...target.fields, ...(target.tagged ? ['tags'] : [])].map((c) => sql.ref(c));
    const tuples = rows.map(({ row, texts }) => {
      const prefix = target.tagged ? workspacePrefix(row.workspaceCode!) : '';
      const values: unknown[] = target.fields.map((f) =>
        distinctWords(texts[f])
          .map((w) => prefix + w)
          .join(' '),
      );
      if (target.tagged) values.push((row.tags ?? []).map((t) => prefix + t).join(' '));
      return sql`(${row.seq}, ${sql.join(values)})`;
    });
    await sql`insert into ${sql.table(target.fts)} (rowid, ${sql.join(columns)}) values ${sql.join(tuples)}`.execute(
      db,
    );
    if (target.tagged) await this.#recordTerms(db, target, rows);
  }

  /** Tagged targets keep the set of words ever indexed, for prefix expansion (expandPrefixes). */
  async #recordTerms(
    db: Kysely<DB>,
    target: SearchTarget,
    rows: { row: IndexedRow; texts: Record<string, string | null> }[],
  ): Promise<void> {
    const terms = new Set<string>();
    for (const { row, texts } of rows) {
      const prefix = workspacePrefix(row.workspaceCode!);
      for (const f of target.fields) for (const w of distinctWords(texts[f])) terms.add(prefix + w);
    }
    const list = [...terms];
    for (let i = 0; i < list.length; i += 500) {
      const values = list.slice(i, i + 500).map((t) => sql`(${t})`);
      await sql`insert or ignore into ${sql.table(`${target.fts}_terms`)} (term) values ${sql.join(values)}`.execute(
        db,
      );
    }
  }

  matches(target: SearchTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool> {
    if (target.tagged) throw new Error(`${target.table} is searched with taggedMatch`);
    const expression = queries.map((q) => fieldExpression(q)).join(mode === 'all' ? ' AND ' : ' OR ');
    return sql<SqlBool>`${sql.ref(`${alias}.seq`)} in (select rowid from ${sql.table(target.fts)} where ${sql.table(target.fts)} match ${expression})`;
  }
}

/**
 * One "field" of a tagged query: words in an FTS column, or any of a set of tags (related names).
 * `terms` (from expandPrefixes) lists, per word, the indexed words it is a prefix of.
 */
export type TaggedField =
  | { field: string; words: string[]; terms?: (string[] | null)[] }
  | { tags: string[] };

/** A prefix with more indexed words than this is asked as an FTS5 prefix query instead. */
const MAX_TERMS = 64;

/**
 * FTS5 reads a prefix query's matches all at once before it can return the first (10 ms for a word
 * in 14 % of a million rows), but walks an exact word lazily (0.1 ms for a page). So each query word
 * is first expanded into the indexed words it is a prefix of, from `<fts>_terms`, a B-tree range
 * scan; the page then asks for those exact words. Null for a word with too many (the prefix query).
 */
export async function expandPrefixes(
  db: Kysely<DB>,
  target: SearchTarget,
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

export interface TaggedQuery {
  workspaceCode: number;
  fields: TaggedField[];
  mode: MatchMode;
  /** AND of (OR of tags). */
  require: string[][];
  exclude: Exclusion[];
}

/**
 * Which rows of a tagged query: `all` fields matching, `rest` (mode any: some but not all), or
 * `matching` (everything the query finds: the total).
 */
export type Tier = 'all' | 'rest' | 'matching';

/** The FTS5 MATCH expression of a tagged query, or null when nothing can match. */
export function taggedMatch(q: TaggedQuery, tier: Tier): string | null {
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
  const live = fields.filter((f): f is string => f !== null);
  const all = live.length === fields.length ? live.join(' AND ') : null;
  const some = live.length > 0 ? live.join(' OR ') : null;
  let text: string | null;
  if (q.mode === 'all' || fields.length <= 1) text = tier === 'rest' ? null : all;
  else if (tier === 'all') text = all;
  else if (tier === 'rest') text = some && all ? `(${some}) NOT (${all})` : some;
  else text = some;
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
