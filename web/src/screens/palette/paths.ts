// Where a found thing opens: the app's pages for a task, a project, a document and a team's tasks.
// Task pages are by the task's number (workspace-wide), projects and documents by their publicId.
import type { FoundDocument, FoundProject, FoundTask, FoundTeam } from '../../api/search.ts';

export const taskPath = (task: Pick<FoundTask, 'publicId'>) => `/tasks/${task.publicId}`;
export const projectPath = (project: FoundProject) => `/projects/${encodeURIComponent(project.publicId)}`;
export const documentPath = (document: FoundDocument) =>
  `/documents/${encodeURIComponent(document.publicId)}`;
export const teamTasksPath = (team: Pick<FoundTeam, 'publicId'>) =>
  `/teams/${encodeURIComponent(team.publicId)}/tasks`;

/** A task's public id as people say it: its team's (or area's) code and its number, `ENG-142`. */
export function taskCode(task: FoundTask): string {
  const code = task.team?.publicId ?? task.area?.publicId;
  return code ? `${code}-${task.publicId}` : String(task.publicId);
}
