// Who sees which documents, as one rule (db/listing.ts VisibilityRule): the check of one document
// (policy.canSeeDocument) and the same rule as SQL conditions on alias d, for searches and totals.
import { type SqlBool, sql } from 'kysely';
import { type Context, perRequest } from '../../context.ts';
import type { VisibilityRule } from '../../db/listing.ts';
import * as groups from '../groups/lookup.ts';
import { isWorkspaceAdmin } from '../users/policy.ts';
import { canSeeDocument, type DocumentFacts } from './policy.ts';
import type { DocumentRow } from './repository.ts';

export function documentFacts(row: DocumentRow): DocumentFacts {
  return { groupId: row.group_id, visibility: row.visibility, createdById: row.created_by_id };
}

/** The caller's document rule, made once per request. */
export function documentVisibility(ctx: Context): Promise<VisibilityRule<DocumentFacts>> {
  return perRequest(ctx, 'documents.visibility', async () => {
    const visibility = await groups.groupVisibility(ctx);
    const sees = (facts: DocumentFacts) => canSeeDocument(ctx.actor, facts, visibility);
    if (isWorkspaceAdmin(ctx.actor)) return { sees, where: [] };
    const where = [sql<SqlBool>`(d.visibility = 'workspace' or d.created_by_id = ${ctx.actor.id})`];
    if (!visibility.all) {
      const visible = [...visibility.visible];
      where.push(
        visible.length > 0 ? sql<SqlBool>`d.group_id in (${sql.join(visible)})` : sql<SqlBool>`1 = 0`,
      );
    }
    return { sees, where };
  });
}
