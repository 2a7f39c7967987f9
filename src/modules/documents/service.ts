// Operations on documents, each inside the caller's transaction, each writing its event.
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import type { Page, PageRequest, Tiered, Total } from '../../db/keyset.ts';
import { type Condition, searchPage } from '../../db/listing.ts';
import { lockDerived } from '../../db/locks.ts';
import { distinctWords } from '../../db/search/fold.ts';
import { type MatchMode, plainIndex } from '../../db/search/index.ts';
import { changedFrom } from '../../events/changes.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { textRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import { EMPTY, fromInput, plainText } from '../../text/description.ts';
import { slugFor } from '../../text/slug.ts';
import * as groups from '../groups/lookup.ts';
import { restoreDeleted, softDelete } from '../soft-delete.ts';
import { presentDocuments } from './present.ts';
import type { DocumentRow } from './repository.ts';
import * as repo from './repository.ts';
import type { DocumentUpsertBody } from './schema.ts';
import { documentFacts, documentVisibility } from './visibility.ts';

/**
 * A document the caller may see, deleted or not; anything else is 404. `forChange` locks the row on
 * PostgreSQL until the transaction ends, so concurrent changes queue and read what the other wrote.
 */
export async function loadVisibleDocument(
  ctx: Context,
  ref: string,
  forChange = false,
): Promise<DocumentRow> {
  const lock = forChange && ctx.dialect === 'postgres';
  const [row, rule] = await Promise.all([
    repo.findDocument(ctx.db, ctx.workspace.id, textRef(ref), lock),
    documentVisibility(ctx),
  ]);
  if (!row || !rule.sees(documentFacts(row))) throw notFound('Document');
  if (forChange) checkVersion(ctx, 'document', row.updated_at);
  return row;
}

/** The documents of these ids (UUIDs) that ctx can see, deleted or not, in one query (event data). */
export async function loadVisibleDocuments(ctx: Context, ids: string[]): Promise<DocumentRow[]> {
  const [rows, rule] = await Promise.all([
    repo.findDocumentsByIds(ctx.db, ctx.workspace.id, ids),
    documentVisibility(ctx),
  ]);
  return rows.filter((row) => rule.sees(documentFacts(row)));
}

/** The documents' search index, written by every path that changes a name or description. */
export const DOCUMENT_INDEX = plainIndex<DocumentRow>(repo.DOCUMENT_TARGET, (row) => ({
  name: row.name,
  description: plainText(row.description_html),
}));

async function checkTeam(ctx: Context, id: string): Promise<string> {
  if (!(await groups.visibleTeamIds(ctx, [id])).has(id)) throw invalid('teamId', 'no team with this id');
  return id;
}

function documentSlug(ctx: Context, name: string, current?: string): Promise<string> {
  const taken = async (stem: string) => {
    // Two documents named alike at once would both take the first free slug (db/locks.ts).
    await lockDerived(ctx, 'documents.slug');
    return repo.slugsStartingWith(ctx.db, ctx.workspace.id, stem);
  };
  return slugFor(name, 'document', taken, current);
}

const DELETED = () => new AppError('deleted', 'This document is deleted; restore it first');

/** POST /v1/documents: create, or update when `id` is given. */
export async function upsertDocument(
  ctx: Context,
  body: DocumentUpsertBody,
): Promise<{ row: DocumentRow; created: boolean }> {
  const at = now();
  if (body.id !== undefined) return { row: await updateDocument(ctx, body.id, body, at), created: false };
  if (body.name === undefined) throw invalid('name', 'is required when creating');
  if (body.teamId === undefined) throw invalid('teamId', 'is required when creating');
  const groupId = await checkTeam(ctx, body.teamId);
  const name = body.name.trim();
  const description = body.description ? fromInput(body.description) : EMPTY;
  const row = await repo.insertDocument(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    public_id: String(await nextValues(ctx.db, ctx.workspace.id, 'document')),
    name,
    slug: await documentSlug(ctx, name),
    visibility: body.visibility ?? 'workspace',
    group_id: groupId,
    description_html: description.html,
    description_markdown: description.markdown,
    created_by_id: ctx.actor.id,
    last_edited_by_id: ctx.actor.id,
    last_edited_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    deleted_by_id: null,
  });
  await DOCUMENT_INDEX.writeNew(ctx, [row]);
  await recordEvent(ctx, 'document.created', row.id, at);
  return { row, created: true };
}

async function updateDocument(ctx: Context, ref: string, body: DocumentUpsertBody, at: string) {
  const current = await loadVisibleDocument(ctx, ref, true);
  if (current.deleted_at !== null) throw DELETED();
  const changes: Partial<DocumentRow> = { updated_at: changedAt(current.updated_at, at) };
  if (body.name !== undefined) {
    changes.name = body.name.trim();
    changes.slug = await documentSlug(ctx, changes.name, current.slug);
  }
  if (body.description !== undefined) {
    const d = body.description === null ? EMPTY : fromInput(body.description);
    changes.description_html = d.html;
    changes.description_markdown = d.markdown;
  }
  if (body.visibility !== undefined) changes.visibility = body.visibility;
  if (body.teamId !== undefined) changes.group_id = await checkTeam(ctx, body.teamId);
  // The content is the name and the description: what "last edited" is about.
  const edited = changes.name !== undefined || changes.description_html !== undefined;
  if (edited) {
    changes.last_edited_by_id = ctx.actor.id;
    changes.last_edited_at = at;
  }
  if (!(await repo.updateDocument(ctx.db, ctx.workspace.id, current.id, changes))) throw DELETED();
  const row = { ...current, ...changes };
  if (edited) await DOCUMENT_INDEX.write(ctx, row);
  await recordEvent(ctx, 'document.updated', row.id, at, await documentChanges(ctx, current, row));
  return row;
}

/** What a document.updated event says changed (events/changes.ts); the presenter asks no query here. */
async function documentChanges(ctx: Context, before: DocumentRow, after: DocumentRow) {
  const [was, is] = await presentDocuments(ctx, [before, after], {
    expand: new Set(),
    includeMarkdown: true,
  });
  return changedFrom(was!, is!);
}

/** DELETE /v1/documents/{id}: soft delete; deleting a deleted document changes nothing. */
export async function deleteDocument(ctx: Context, ref: string): Promise<void> {
  await softDelete(ctx, 'documents', await loadVisibleDocument(ctx, ref, true), 'document.deleted');
}

/** POST /v1/documents/{id}/restore (409 not_deleted when live). */
export async function restoreDocument(ctx: Context, ref: string): Promise<DocumentRow> {
  const current = await loadVisibleDocument(ctx, ref, true);
  return restoreDeleted(ctx, 'documents', current, 'document.restored', 'document');
}

export interface DocumentSearch {
  name?: string;
  description?: string;
  teamName?: string;
  mode: MatchMode;
  teamId?: string;
  includeDeleted: boolean;
  /** Extension (sync): changed at or after this instant, in the stored form. */
  updatedSince?: string;
}

/** GET /v1/documents/search: relevance tiers (search.md), then most recently updated first. */
export async function searchDocuments(
  ctx: Context,
  s: DocumentSearch,
  page: PageRequest,
): Promise<Page<Tiered<DocumentRow>> & Total> {
  const fields: (Condition | null)[] = [];
  for (const field of ['name', 'description'] as const) {
    const w = distinctWords(s[field]);
    if (w.length > 0) fields.push(repo.textMatches(ctx.search, { field, words: w }));
  }
  const teamWords = distinctWords(s.teamName);
  if (teamWords.length > 0) {
    // Only teams the caller sees: a hidden team's name finds nothing.
    const ids = await groups.teamIdsByName(ctx, teamWords);
    fields.push(ids.length > 0 ? repo.inGroups(ids) : null);
  }
  const rule = await documentVisibility(ctx);
  const where: Condition[] = s.teamId ? rule.inTeam(s.teamId) : [...rule.where];
  where.push(...repo.documentConditions({ live: !s.includeDeleted, updatedSince: s.updatedSince }));
  return searchPage(ctx, repo.DOCUMENT_SEARCH, { fields, mode: s.mode, where }, page);
}
