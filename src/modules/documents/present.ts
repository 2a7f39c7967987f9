// Documents to API objects; the team expansion of a whole page is loaded at once.
import type { Context } from '../../context.ts';
import type { Presentation } from '../../http/query.ts';
import * as groups from '../groups/lookup.ts';
import type { DocumentRow } from './repository.ts';
import type { Document, DocumentExpansion } from './schema.ts';

export type DocumentPresentation = Presentation<DocumentExpansion>;

export async function presentDocuments(
  ctx: Context,
  rows: DocumentRow[],
  { expand, includeMarkdown }: DocumentPresentation,
): Promise<Document[]> {
  const teams = expand.has('team')
    ? new Map(
        (
          await groups.groupsByIds(
            ctx,
            rows.map((r) => r.group_id),
          )
        ).map((g) => [g.id, g]),
      )
    : undefined;
  return rows.map((row) => {
    const out: Document = {
      id: row.id,
      publicId: row.public_id,
      name: row.name,
      slug: row.slug,
      visibility: row.visibility,
      createdById: row.created_by_id,
      lastEditedById: row.last_edited_by_id,
      lastEditedAt: row.last_edited_at,
      workspaceId: row.workspace_id,
      teamId: row.group_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      deletedAt: row.deleted_at,
      deletedById: row.deleted_by_id,
      description: includeMarkdown
        ? { html: row.description_html, markdown: row.description_markdown }
        : { html: row.description_html },
    };
    if (teams) {
      const g = teams.get(row.group_id)!;
      out.team = { id: g.id, name: g.name, publicId: g.public_id };
    }
    return out;
  });
}
