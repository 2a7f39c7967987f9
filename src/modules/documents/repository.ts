import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { findByIds, findByRef } from '../../db/by-id.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import type { FieldQuery, PlainTarget, SearchProvider } from '../../db/search/index.ts';
import { updateIfLive } from '../../db/state.ts';
import type { DB } from '../../db/types.ts';
import type { DocumentsTable } from './table.ts';

/** The documents' text index (FTS5 table and tsvector columns, made by the migrations). */
export const DOCUMENT_TARGET = {
  table: 'documents',
  fts: 'documents_fts',
  fields: ['name', 'description'],
  tagged: false,
} as const satisfies PlainTarget;

export type DocumentRow = Selectable<DocumentsTable>;

const COLUMNS = [
  'd.seq',
  'd.workspace_id',
  'd.id',
  'd.public_id',
  'd.name',
  'd.slug',
  'd.visibility',
  'd.group_id',
  'd.description_html',
  'd.description_markdown',
  'd.created_by_id',
  'd.last_edited_by_id',
  'd.last_edited_at',
  'd.created_at',
  'd.updated_at',
  'd.deleted_at',
  'd.deleted_by_id',
] as const;

const SOURCE = { from: 'documents as d', columns: COLUMNS } as const;

export async function insertDocument(db: Kysely<DB>, row: Omit<DocumentRow, 'seq'>): Promise<DocumentRow> {
  const { seq } = await db.insertInto('documents').values(row).returning('seq').executeTakeFirstOrThrow();
  return { ...row, seq: Number(seq) };
}

/** Many new documents in one statement, with their seqs (the SQLite index's rowids). */
export async function insertDocuments(
  db: Kysely<DB>,
  rows: Omit<DocumentRow, 'seq'>[],
): Promise<DocumentRow[]> {
  if (rows.length === 0) return [];
  const seqs = await db.insertInto('documents').values(rows).returning(['id', 'seq']).execute();
  const byId = new Map(seqs.map((r) => [r.id, Number(r.seq)]));
  return rows.map((row) => ({ ...row, seq: byId.get(row.id)! }));
}

/**
 * Applies `changes` if the document is live: false when it is deleted, so that an update racing a
 * delete changes nothing (deletes and restores: db/state.ts setDeleted).
 */
export function updateDocument(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<DocumentRow>,
): Promise<boolean> {
  return updateIfLive(db, 'documents', workspaceId, id, changes);
}

/** A document by id or publicId; `forUpdate` (PostgreSQL) locks it until the transaction ends. */
export function findDocument(
  db: Kysely<DB>,
  workspaceId: string,
  ref: { id: string } | { publicId: string },
  forUpdate = false,
): Promise<DocumentRow | undefined> {
  return findByRef<DocumentRow>(db, SOURCE, workspaceId, ref, forUpdate);
}

/** The documents of these ids (UUIDs), in one query. */
export function findDocumentsByIds(
  db: Kysely<DB>,
  workspaceId: string,
  ids: string[],
): Promise<DocumentRow[]> {
  return findByIds<DocumentRow>(db, SOURCE, workspaceId, ids);
}

export async function slugsStartingWith(
  db: Kysely<DB>,
  workspaceId: string,
  stem: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('documents')
    .select('slug')
    .where('workspace_id', '=', workspaceId)
    .where('slug', '>=', stem)
    .where('slug', '<', `${stem}\u007f`)
    .execute();
  return new Set(rows.map((r) => r.slug));
}

/** GET /v1/documents/search: within a relevance tier, most recently updated first. */
export const DOCUMENT_SEARCH = tableListing(
  defineOrder<DocumentRow>([
    { ref: 'd.updated_at', dir: 'desc', key: (r) => r.updated_at },
    { ref: 'd.id', dir: 'desc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('documents as d').where('d.workspace_id', '=', workspaceId),
  COLUMNS,
);

/** The filters of document searches, each a condition on DOCUMENT_SEARCH's rows. */
export interface DocumentFilter {
  /** Not deleted. */
  live?: boolean;
  /** Changed at or after this instant, in the stored form. */
  updatedSince?: string;
}

export function documentConditions(f: DocumentFilter): Condition[] {
  const where: Condition[] = [];
  if (f.live) where.push(sql<SqlBool>`d.deleted_at is null`);
  if (f.updatedSince) where.push(sql<SqlBool>`d.updated_at >= ${f.updatedSince}`);
  return where;
}

/** A text field's words, as a condition on DOCUMENT_SEARCH's rows. */
export function textMatches(search: SearchProvider, query: FieldQuery): Condition {
  return search.matches(DOCUMENT_TARGET, 'd', [query], 'all');
}

/** Documents of these teams (a teamName field, the visibility rule; never empty). */
export function inGroups(ids: string[]): Condition {
  return sql<SqlBool>`d.group_id in (${sql.join(ids)})`;
}

/** Documents of one team (a teamId filter). */
export function inGroup(id: string): Condition {
  return sql<SqlBool>`d.group_id = ${id}`;
}

/** Documents open to the workspace, or private ones `userId` created (the visibility rule). */
export function openTo(userId: string): Condition {
  return sql<SqlBool>`(d.visibility = 'workspace' or d.created_by_id = ${userId})`;
}
