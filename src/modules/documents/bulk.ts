// Inserting many generated documents at once (`cairn seed`): the same rows and index entries as
// upsertDocument, a few hundred per statement, without events. Names must be unique (the seed numbers
// them), so that each slug, their stem, is too; the caller has checked every reference.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import type { Visibility } from '../../db/types.ts';
import { slugStem } from '../../text/slug.ts';
import type { DocumentRow } from './repository.ts';
import * as repo from './repository.ts';
import { DOCUMENT_INDEX } from './service.ts';

export interface GeneratedDocument {
  name: string;
  descriptionHtml: string;
  descriptionMarkdown: string;
  groupId: string;
  createdById: string;
  visibility: Visibility;
  at: string;
}

const CHUNK = 400;

export async function insertGeneratedDocuments(ctx: Context, docs: GeneratedDocument[]): Promise<void> {
  const firstPublicId = await nextValues(ctx.db, ctx.workspace.id, 'document', docs.length);
  for (let start = 0; start < docs.length; start += CHUNK) {
    const rows: Omit<DocumentRow, 'seq'>[] = docs.slice(start, start + CHUNK).map((d, i) => ({
      workspace_id: ctx.workspace.id,
      id: randomUUID(),
      public_id: String(firstPublicId + start + i),
      name: d.name,
      slug: slugStem(d.name, 'document'),
      visibility: d.visibility,
      group_id: d.groupId,
      description_html: d.descriptionHtml,
      description_markdown: d.descriptionMarkdown,
      created_by_id: d.createdById,
      last_edited_by_id: d.createdById,
      last_edited_at: d.at,
      created_at: d.at,
      updated_at: d.at,
      deleted_at: null,
      deleted_by_id: null,
    }));
    await DOCUMENT_INDEX.writeNew(ctx, await repo.insertDocuments(ctx.db, rows));
  }
}
