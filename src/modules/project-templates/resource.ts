// Project templates in the registry of resources (modules/registry.ts).
import { defineResource } from '../resource.ts';
import { presentProjectTemplates } from './present.ts';
import projectTemplateRoutes from './routes.ts';
import { loadVisibleProjectTemplates } from './service.ts';

export const PROJECT_TEMPLATE = defineResource({
  kind: 'project_template',
  path: 'project-templates',
  tables: [
    { name: 'project_templates', order: ['seq'] },
    { name: 'project_template_areas', order: ['template_id', 'group_id'] },
  ],
  searchFields: [],
  events: ['project_template.created'],
  eventData: {
    loadVisible: loadVisibleProjectTemplates,
    present: (ctx, rows) => presentProjectTemplates(ctx, rows, { includeMarkdown: true }),
  },
  routes: projectTemplateRoutes,
});
