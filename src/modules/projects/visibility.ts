// Who sees which projects, as one rule (db/listing.ts VisibilityRule): a project is seen by whoever
// sees at least one of its teams (policy.canSeeProject), which in SQL is "has a team among the
// caller's visible groups". Every path that reads projects goes through it: get, list, search,
// totals, task expansions and the tasks' projectName filter.
import { type Context, perRequest } from '../../context.ts';
import type { Condition, VisibilityRule } from '../../db/listing.ts';
import * as groups from '../groups/lookup.ts';
import { canSeeProject } from './policy.ts';
import { hasTeamIn, ofTeam } from './repository.ts';

/** The caller's project rule; the facts of a project are its team ids. */
export function projectVisibility(ctx: Context): Promise<VisibilityRule<string[]>> {
  return perRequest(ctx, 'projects.visibility', async () => {
    const visibility = await groups.groupVisibility(ctx);
    return {
      sees: (teamIds) => canSeeProject(teamIds, visibility),
      where: visibility.all ? [] : [hasTeamIn([...visibility.visible])],
    };
  });
}

/**
 * A filter by team: projects of that team, if the caller sees the team. Without that check, a project
 * the caller sees through another team would reveal that it also belongs to a hidden one. `list`:
 * the form that starts from the team's projects (repository.ts ofTeam), faster for a list and slower
 * next to a text condition, where the planner should start from the text.
 */
export async function inTeam(ctx: Context, teamId: string, list: boolean): Promise<Condition> {
  const id = teamId.toLowerCase();
  if (!(await groups.groupVisibility(ctx)).visible.has(id)) return hasTeamIn([]);
  return list ? ofTeam(ctx.workspace.id, id) : hasTeamIn([id]);
}
