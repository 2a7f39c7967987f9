// Projects: a team's list (status and archived filters), one project with its tasks and its status
// updates (posts with action `status_update`), and the changes the project's page makes: a status
// update, archive and unarchive, a new project, blank or from a project template.
import type { Schema } from '@cairn/client';
import { queryOptions } from '@tanstack/react-query';
import { cairn, PAGE_SIZE } from './client.ts';

export type Project = Schema<'Project'>;
export type Post = Schema<'Post'>;
export type ProjectStatus = { id: string; name: string; color: string; position: number };

/** Projects a team's list reads at most (a team has tens, not thousands); the list says when it stops. */
export const TEAM_PROJECTS_LIMIT = 500;
/** Tasks a project's page reads at most, most recently changed first. */
export const PROJECT_TASKS_LIMIT = 500;

/** The workspace's project statuses, in their order (a handful, unpaginated). */
export const projectStatusesQuery = queryOptions({
  queryKey: ['projects', 'statuses'],
  queryFn: async ({ signal }): Promise<ProjectStatus[]> => (await cairn.listProjectStatuses({ signal })).data,
  staleTime: 5 * 60_000,
});

export interface TeamProjectFilters {
  statusId?: string | undefined;
  archived?: boolean | undefined;
}

/** A team's projects, newest first; archived ones too when asked (each says so by `archivedAt`). */
export function teamProjectsQuery(teamId: string, filters: TeamProjectFilters) {
  return queryOptions({
    queryKey: ['projects', 'team', teamId, filters],
    queryFn: async ({ signal }) => {
      const projects: Project[] = [];
      for await (const project of cairn.paginate('listProjects', {
        params: {
          query: {
            teamId,
            statusId: filters.statusId,
            includeArchived: filters.archived ? 'true' : undefined,
            expand: ['status', 'owner'],
          },
        },
        pageSize: PAGE_SIZE,
        signal,
      })) {
        projects.push(project);
        if (projects.length >= TEAM_PROJECTS_LIMIT) break;
      }
      return projects;
    },
  });
}

/** One project by publicId (`12`) or id, with its status, owner, teams or area. */
export function projectQuery(key: string) {
  return queryOptions({
    queryKey: ['project', key],
    queryFn: ({ signal }) => cairn.getProject({ params: { path: { id: key } }, signal }),
  });
}

/** A project's tasks, most recently changed first (with the team or area for their codes). */
export function projectTasksQuery(projectId: string) {
  return queryOptions({
    queryKey: ['tasks', 'project', projectId],
    queryFn: async ({ signal }) => {
      const tasks: Schema<'Task'>[] = [];
      for await (const task of cairn.paginate('searchTasks', {
        params: { query: { projectId, expand: ['status', 'assignee', 'team', 'area'] } },
        pageSize: PAGE_SIZE,
        signal,
      })) {
        tasks.push(task);
        if (tasks.length >= PROJECT_TASKS_LIMIT) break;
      }
      return tasks;
    },
  });
}

/** A project's status updates, newest first: its posts whose action is `status_update`. */
export function statusUpdatesQuery(projectId: string) {
  return queryOptions({
    queryKey: ['posts', 'project', projectId, 'status-updates'],
    queryFn: async ({ signal }) => {
      const updates: Post[] = [];
      for await (const post of cairn.paginate('listPosts', {
        params: { query: { entityType: 'project', entityId: projectId, expand: ['owner'] } },
        pageSize: PAGE_SIZE,
        signal,
      })) {
        if (post.action === 'status_update') updates.push(post);
      }
      // The API lists posts oldest first; a timeline reads from the latest.
      return updates.reverse();
    },
  });
}

/** The project templates the person sees (up to 100: the API's one page of templates). */
export const projectTemplatesQuery = queryOptions({
  queryKey: ['projects', 'templates'],
  queryFn: async ({ signal }) =>
    (await cairn.listProjectTemplates({ params: { query: { limit: 100 } }, signal })).data,
  staleTime: 60_000,
});

// --- Changes ------------------------------------------------------------------------------------------

export function postStatusUpdate(input: { projectId: string; statusId: string; content: string }) {
  return cairn.postProjectStatusUpdate({
    params: { path: { id: input.projectId } },
    body: { statusId: input.statusId, content: input.content },
  });
}

export function setProjectArchived(projectId: string, archived: boolean) {
  const init = { params: { path: { id: projectId } } };
  return archived ? cairn.archiveProject(init) : cairn.unarchiveProject(init);
}

export interface NewProject {
  name: string;
  teamId: string;
  statusId?: string | undefined;
  description?: string | undefined;
}

export function createProject(input: NewProject) {
  return cairn.upsertProject({
    body: {
      name: input.name,
      teamId: input.teamId,
      statusId: input.statusId,
      description: input.description ? { markdown: input.description } : undefined,
    },
  });
}

/** A project made from a template: it lives in the template's area, with the template's tasks. */
export function createProjectFromTemplate(input: { templateId: string; name?: string | undefined }) {
  return cairn.createProjectFromTemplate({
    params: { path: { id: input.templateId } },
    body: input.name ? { name: input.name } : {},
  });
}
