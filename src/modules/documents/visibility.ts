// Who sees which documents, as one rule (db/listing.ts VisibilityRule): the check of one document
// (policy.canSeeDocument) and the same rule as SQL conditions on the documents' listing
// (repository.ts), for searches and totals. A document is of a team: that part is db/listing.ts
// groupRowRule, as for the other resources of a group.
import { type Context, perRequest } from '../../context.ts';
import { type Condition, groupRowRule, NOTHING, type VisibilityRule } from '../../db/listing.ts';
import * as groups from '../groups/lookup.ts';
import { isWorkspaceAdmin } from '../users/policy.ts';
import { canSeeDocument, type DocumentFacts } from './policy.ts';
import type { DocumentRow } from './repository.ts';
import { inGroup, inGroups, openTo } from './repository.ts';

export function documentFacts(row: DocumentRow): DocumentFacts {
  return { groupId: row.group_id, visibility: row.visibility, createdById: row.created_by_id };
}

export interface DocumentRule extends VisibilityRule<DocumentFacts> {
  /**
   * The rule within one team (a teamId filter): that team's documents the caller sees, or none if the
   * team is hidden; without the list of every visible team, which would make SQLite read them all.
   */
  inTeam(teamId: string): Condition[];
}

/** The caller's document rule, made once per request. */
export function documentVisibility(ctx: Context): Promise<DocumentRule> {
  return perRequest(ctx, 'documents.visibility', async () => {
    const visibility = await groups.groupVisibility(ctx);
    const sees = (facts: DocumentFacts) => canSeeDocument(ctx.actor, facts, visibility);
    const own = isWorkspaceAdmin(ctx.actor) ? [] : [openTo(ctx.actor.id)];
    const ofGroup = groupRowRule(visibility, inGroups);
    const inTeam = (teamId: string) =>
      visibility.visible.has(teamId) ? [...own, inGroup(teamId)] : [NOTHING];
    return { sees, where: [...own, ...ofGroup.where], inTeam };
  });
}
