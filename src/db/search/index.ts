// Full-text search behind one small interface: FTS5 on SQLite, tsvector + GIN on PostgreSQL. Both index
// the same folded words (fold.ts) and answer the same question: is every query word a prefix of some
// word of the field? Callers build their own ordering and pagination around `matches`.
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { DB } from '../types.ts';
import { Fts5Search } from './fts5.ts';
import { TsvectorSearch } from './tsvector.ts';

export interface SearchTarget {
  /** The table holding the rows; it has seq, workspace_id and id columns. */
  table: keyof DB;
  /** SQLite: the contentless FTS5 table, one column per field, rowid = the row's seq. */
  fts: string;
  /** Field names; on PostgreSQL each is a `<field>_tsv` column of the table. */
  fields: readonly string[];
}

export const SEARCH_TARGETS = {
  groups: { table: 'groups', fts: 'groups_fts', fields: ['name'] },
} as const satisfies Record<string, SearchTarget>;

export interface FieldQuery {
  field: string;
  /** Folded, non-empty list of words (see distinctWords). */
  words: string[];
}

export type MatchMode = 'all' | 'any';

export interface IndexedRow {
  seq: number;
  workspaceId: string;
  id: string;
}

export interface SearchProvider {
  /** Replaces the indexed text of one row, for every field of the target (null indexes nothing). */
  write(
    db: Kysely<DB>,
    target: SearchTarget,
    row: IndexedRow,
    texts: Record<string, string | null>,
  ): Promise<void>;
  /** Removes a row from the index (rows that are only hidden, not gone, stay indexed). */
  remove(db: Kysely<DB>, target: SearchTarget, row: IndexedRow): Promise<void>;
  /**
   * A condition on `alias` (a row of target.table): with `all`, every field query matches; with `any`,
   * at least one does. Queries must be non-empty.
   */
  matches(target: SearchTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool>;
}

export function createSearch(dialect: 'sqlite' | 'postgres'): SearchProvider {
  return dialect === 'sqlite' ? new Fts5Search() : new TsvectorSearch();
}
