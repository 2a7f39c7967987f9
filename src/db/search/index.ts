// Full-text search behind one small interface: FTS5 on SQLite, tsvector + GIN on PostgreSQL. Both index
// the same folded words (fold.ts) and answer the same question: is every query word a prefix of some
// word of the field?
//
// Two ways to ask it:
// - `matches`: a SQL condition on a row, for the small tables (teams, users, projects) and for
//   PostgreSQL everywhere;
// - the tagged FTS5 query (fts5.ts, `taggedMatch`), for SQLite's task search at scale, where filters
//   are part of the full-text query so that a page and its total never join back to the table.
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
  /**
   * SQLite: words are prefixed with the workspace code and the FTS5 table has a `tags` column of
   * filter tokens. Such a target is searched with the tagged query, not `matches`.
   */
  tagged: boolean;
}

export const SEARCH_TARGETS = {
  groups: { table: 'groups', fts: 'groups_fts', fields: ['name'], tagged: false },
  users: { table: 'users', fts: 'users_fts', fields: ['name'], tagged: false },
  projects: { table: 'projects', fts: 'projects_fts', fields: ['name', 'description'], tagged: false },
  tasks: { table: 'tasks', fts: 'tasks_fts', fields: ['name', 'description'], tagged: true },
} as const satisfies Record<string, SearchTarget>;

export interface FieldQuery {
  field: string;
  /** Folded, non-empty list of words (see distinctWords). */
  words: string[];
}

export type MatchMode = 'all' | 'any';

export interface IndexedRow {
  seq: number;
  /** The seq the row was indexed under before this change, when it moved (tasks). */
  previousSeq?: number;
  workspaceId: string;
  id: string;
  /** Tagged targets: the workspace's code and the row's filter tokens (see fts5.ts). */
  workspaceCode?: number;
  tags?: string[];
}

export interface SearchProvider {
  readonly kind: 'fts5' | 'tsvector';
  /** Replaces the indexed text of one row, for every field of the target (null indexes nothing). */
  write(
    db: Kysely<DB>,
    target: SearchTarget,
    row: IndexedRow,
    texts: Record<string, string | null>,
  ): Promise<void>;
  /** Indexes many rows of one workspace that were never indexed, in as few statements as it can (seeding). */
  writeNew(
    db: Kysely<DB>,
    target: SearchTarget,
    rows: { row: IndexedRow; texts: Record<string, string | null> }[],
  ): Promise<void>;
  /**
   * A condition on `alias` (a row of target.table): with `all`, every field query matches; with `any`,
   * at least one does. Queries must be non-empty.
   */
  matches(target: SearchTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool>;
}

export function createSearch(dialect: 'sqlite' | 'postgres'): SearchProvider {
  return dialect === 'sqlite' ? new Fts5Search() : new TsvectorSearch();
}

/** A filter token: a letter for its kind and an id without dashes (`g3f2a…`), or a bare word. */
export function tag(kind: string, value = ''): string {
  return `${kind}${value.replaceAll('-', '')}`;
}
