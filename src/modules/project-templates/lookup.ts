// Reads other modules make of project templates (a task template scoped to one), kept apart from
// service.ts, which itself calls the task-templates service to make a project's tasks.
import type { Context } from '../../context.ts';
import { notFound } from '../../http/errors.ts';
import { textRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import * as groups from '../groups/lookup.ts';
import { canSeeTemplate } from '../task-templates/policy.ts';
import type { ProjectTemplateRow } from './repository.ts';
import * as repo from './repository.ts';

/**
 * A project template the caller sees, deleted or not; anything else is 404. Templates follow their
 * owning area's visibility (its other areas are where it is offered, not who sees it).
 */
export async function loadVisibleProjectTemplate(
  ctx: Context,
  ref: string,
  forChange = false,
): Promise<ProjectTemplateRow> {
  const [row, visibility] = await Promise.all([
    repo.findTemplate(ctx.db, ctx.workspace.id, textRef(ref), forChange && ctx.dialect === 'postgres'),
    groups.groupVisibility(ctx),
  ]);
  if (!row || !canSeeTemplate(row.owned_by_area_id, visibility)) throw notFound('Project template');
  if (forChange) checkVersion(ctx, 'project template', row.updated_at);
  return row;
}
