// Which status a new task gets when none is named: one rule, used by create-task from a template and
// by the template's own presentation, so that what a template shows is what it makes.
import type { TaskStage } from '../../db/types.ts';
import type { StatusRow } from '../groups/repository.ts';

/** The group's first status of `stage`, else its default: the first unstarted, backlog, or any. */
export function statusByStage(
  statuses: StatusRow[],
  stage: TaskStage | null | undefined,
): StatusRow | undefined {
  const byStage = (s: TaskStage) => statuses.find((x) => x.stage === s);
  return (stage ? byStage(stage) : undefined) ?? byStage('unstarted') ?? byStage('backlog') ?? statuses[0];
}

/**
 * The status of a task made from a template: the template's status while its group still has it, else
 * the first of the template's stage, else the group's default (docs/templates.md).
 */
export function templateStatus(
  statuses: StatusRow[],
  statusId: string | null,
  stage: TaskStage | null,
): StatusRow | undefined {
  return (statusId ? statuses.find((s) => s.id === statusId) : undefined) ?? statusByStage(statuses, stage);
}
