// Full-text search behind one small interface: FTS5 on SQLite, tsvector + GIN on PostgreSQL. Both index
// the same folded words (fold.ts) and answer the same question: is every query word a prefix of some
// word of the field?
//
// Two ways to ask it:
// - `matches`: a SQL condition on a row, for the small tables (teams, users, projects) and for
//   PostgreSQL everywhere (PlainTarget; on PostgreSQL any target);
// - the tagged FTS5 query (`Fts5Provider.taggedPage`, fts5.ts), for SQLite's task search at scale,
//   where filters are part of the full-text query so that a page and its total never join back to the
//   table.
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Page, PageRequest, Tiered, Total } from '../keyset.ts';
import type { DB } from '../types.ts';
import { Fts5Search, type TaggedListContext, type TaggedSearch, type TaggedSource } from './fts5.ts';
import { TsvectorSearch } from './tsvector.ts';
import type { WordSearch } from './word-walk.ts';

interface Target {
  /** The table holding the rows; it has seq, workspace_id and id columns. */
  table: keyof DB;
  /** SQLite: the contentless FTS5 table, one column per field, rowid = the row's seq. */
  fts: string;
  /** Field names; on PostgreSQL each is a `<field>_tsv` column of the table. */
  fields: readonly string[];
}

/** A small table (teams, users, projects): searched everywhere with a SQL condition (`matches`). */
export interface PlainTarget extends Target {
  tagged: false;
}

/**
 * A table built for a million rows (tasks). On SQLite its words are prefixed with the workspace code
 * and its FTS5 table has a `tags` column of filter tokens, so it is searched with the tagged query
 * (fts5.ts) and never with `matches`. On PostgreSQL its tsvector columns are set by the row's own
 * INSERT or UPDATE (`TaggedSearchIndex.columns`): a second UPDATE for the index would write every
 * row twice, with a dead version and a second entry in each of the table's indexes. Triggers copy
 * the vectors' words into `terms` and `words`, in which a word's rows are in seq order (word-walk.ts).
 */
export interface TaggedTarget extends Target {
  tagged: true;
  /** PostgreSQL: the words ever indexed, numbered (workspace_code, field, word → id). */
  terms: string;
  /** PostgreSQL: the (term, seq) rows of every row's words; a term's field is its index in `fields`. */
  words: string;
}

export type SearchTarget = PlainTarget | TaggedTarget;

export interface FieldQuery {
  field: string;
  /** Folded, non-empty list of words (see distinctWords). */
  words: string[];
}

export type MatchMode = 'all' | 'any';

interface IndexedRow {
  seq: number;
  /** The seq the row was indexed under before this change, when it moved (tasks). */
  previousSeq?: number;
  workspaceId: string;
  id: string;
}

/** A row of a tagged target: its workspace's code and its filter tokens (see fts5.ts). */
export interface TaggedRow extends IndexedRow {
  workspaceCode: number;
  tags: string[];
}

/** One row's entry: what identifies it, and its text per field (null indexes nothing). */
export interface Entry<Row extends IndexedRow = IndexedRow> {
  row: Row;
  texts: Record<string, string | null>;
}

/** Values for the row's own INSERT or UPDATE that hold (part of) its index entry, by column name. */
export type SearchColumns = Record<string, RawBuilder<unknown>>;

interface Provider {
  /** What a tagged target's row stores of its index entry (PostgreSQL: its tsvectors; SQLite: nothing). */
  rowColumns(target: TaggedTarget, texts: Record<string, string | null>): SearchColumns;
  /** Replaces the indexed text of one row, for every field of the target. */
  write(db: Kysely<DB>, target: PlainTarget, entry: Entry): Promise<void>;
  write(db: Kysely<DB>, target: TaggedTarget, entry: Entry<TaggedRow>): Promise<void>;
  /** Indexes many rows of one workspace that were never indexed, in as few statements as it can. */
  writeNew(db: Kysely<DB>, target: PlainTarget, entries: Entry[]): Promise<void>;
  writeNew(db: Kysely<DB>, target: TaggedTarget, entries: Entry<TaggedRow>[]): Promise<void>;
}

/** SQLite. `matches` takes plain targets only: a tagged one is asked with `taggedPage`. */
export interface Fts5Provider extends Provider {
  readonly kind: 'fts5';
  matches(target: PlainTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool>;
  /**
   * A page of a tagged target's search in relevance tiers, cut in its listing's order, and the total
   * of its matches, answered from the index (fts5.ts).
   */
  taggedPage<R>(
    ctx: TaggedListContext,
    source: TaggedSource<R>,
    search: TaggedSearch,
    page: PageRequest,
  ): Promise<Page<Tiered<R>> & Total>;
}

/**
 * PostgreSQL: every target is a tsvector column, searched with `matches`; a tagged target's search
 * at scale walks the rows of its words instead (`taggedPage`, word-walk.ts).
 */
export interface TsvectorProvider extends Provider {
  readonly kind: 'tsvector';
  matches(target: SearchTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool>;
  /**
   * A page of a tagged target's search in relevance tiers, cut in its listing's order, and the total
   * of its matches (counted up to TEXT_TOTAL_CAP). Each text field carries its `matches` condition.
   */
  taggedPage<R>(
    ctx: TaggedListContext,
    source: TaggedSource<R>,
    search: WordSearch,
    page: PageRequest,
  ): Promise<Page<Tiered<R>> & Total>;
}

/**
 * The database's search. Each provider's `matches` is a condition on `alias` (a row of target.table):
 * with `all`, every field query matches; with `any`, at least one does; queries must be non-empty.
 * Narrow on `kind` before asking `matches` of a tagged target: only PostgreSQL's takes one.
 */
export type SearchProvider = Fts5Provider | TsvectorProvider;

export function createSearch(dialect: 'sqlite' | 'postgres'): SearchProvider {
  return dialect === 'sqlite' ? new Fts5Search() : new TsvectorSearch();
}

/** A filter token: a letter for its kind and an id without dashes (`g3f2a…`), or a bare word. */
export function tag(kind: string, value = ''): string {
  return `${kind}${value.replaceAll('-', '')}`;
}

/**
 * A resource's search index: the one hook every write path calls (single writes, batches, bulk
 * seeding, renames), built from the resource's one declaration of what it indexes.
 */
export interface SearchIndex<R, C extends IndexContext = IndexContext> {
  /** What it indexes, and a row's text per field: for a bulk writer that builds entries itself. */
  readonly target: SearchTarget;
  texts(row: R): Record<string, string | null>;
  /** Re-indexes a changed row; `previousSeq` is the seq it was indexed under when the change moved it. */
  write(ctx: C, row: R, previousSeq?: number): Promise<void>;
  /** Indexes rows never indexed before (creates, bulk inserts). */
  writeNew(ctx: C, rows: R[]): Promise<void>;
}

interface IndexContext {
  db: Kysely<DB>;
  search: SearchProvider;
}

/** A tagged index also needs the workspace's code (fts5.ts prefixes every word with it). */
interface TaggedIndexContext extends IndexContext {
  workspace: { code: number };
}

/** A plain target's index: each row's texts. */
export function plainIndex<R extends { seq: number; workspace_id: string; id: string }>(
  target: PlainTarget,
  texts: (row: R) => Record<string, string | null>,
): SearchIndex<R> {
  const entry = (row: R, previousSeq?: number): Entry => ({
    row: { seq: row.seq, workspaceId: row.workspace_id, id: row.id, previousSeq },
    texts: texts(row),
  });
  return {
    target,
    texts,
    write: (ctx, row, previousSeq) => ctx.search.write(ctx.db, target, entry(row, previousSeq)),
    writeNew: (ctx, rows) =>
      ctx.search.writeNew(
        ctx.db,
        target,
        rows.map((r) => entry(r)),
      ),
  };
}

/**
 * A tagged index's writes come in two parts: `columns`, which the row's INSERT, or an UPDATE that
 * changes its texts, must set; and `write`/`writeNew` after it, for what lives outside the row.
 */
export interface TaggedSearchIndex<R> extends SearchIndex<R, TaggedIndexContext> {
  /** Only the row's texts count: it needs no seq or publicId yet (its INSERT makes them). */
  columns(ctx: IndexContext, row: Omit<R, 'seq' | 'public_id'>): SearchColumns;
}

/** A tagged target's index: each row's texts and its filter tags. */
export function taggedIndex<R extends { seq: number; workspace_id: string; id: string }>(
  target: TaggedTarget,
  texts: (row: Omit<R, 'seq' | 'public_id'>) => Record<string, string | null>,
  tags: (row: R) => string[],
): TaggedSearchIndex<R> {
  const entry = (ctx: TaggedIndexContext, row: R, previousSeq?: number): Entry<TaggedRow> => ({
    row: {
      seq: row.seq,
      workspaceId: row.workspace_id,
      id: row.id,
      previousSeq,
      workspaceCode: ctx.workspace.code,
      tags: tags(row),
    },
    texts: texts(row),
  });
  return {
    target,
    texts,
    columns: (ctx, row) => ctx.search.rowColumns(target, texts(row)),
    write: (ctx, row, previousSeq) => ctx.search.write(ctx.db, target, entry(ctx, row, previousSeq)),
    writeNew: (ctx, rows) =>
      ctx.search.writeNew(
        ctx.db,
        target,
        rows.map((r) => entry(ctx, r)),
      ),
  };
}
