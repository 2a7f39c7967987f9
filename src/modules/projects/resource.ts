// Projects in the registry of resources (modules/registry.ts).
import type { SearchIndex } from '../../db/search/index.ts';
import { defineResource } from '../resource.ts';
import { presentProjects } from './present.ts';
import projectRoutes from './routes.ts';
import { PROJECT_EXPANSIONS } from './schema.ts';
import { loadVisibleProjects, PROJECT_INDEX } from './service.ts';

export const PROJECT = defineResource({
  kind: 'project',
  path: 'projects',
  tables: [
    {
      name: 'projects',
      order: ['seq'],
      index: PROJECT_INDEX as SearchIndex<never>,
      dates: ['start_date', 'due_date'],
    },
    { name: 'project_teams', order: ['project_id', 'group_id'] },
  ],
  searchFields: ['name', 'description', 'ownerName', 'teamName'],
  events: [
    'project.created',
    'project.updated',
    'project.archived',
    'project.unarchived',
    'project.status_updated',
  ],
  eventData: {
    loadVisible: loadVisibleProjects,
    present: (ctx, rows) =>
      presentProjects(ctx, rows, { expand: new Set(PROJECT_EXPANSIONS), includeMarkdown: true }),
  },
  routes: projectRoutes,
});
