// Task templates in the registry of resources (modules/registry.ts).
import { defineResource } from '../resource.ts';
import { presentTaskTemplates } from './present.ts';
import taskTemplateRoutes from './routes.ts';
import { loadVisibleTaskTemplates } from './service.ts';

export const TASK_TEMPLATE = defineResource({
  kind: 'task_template',
  path: 'task-templates',
  tables: [
    { name: 'task_templates', order: ['seq'], booleans: ['priority'] },
    { name: 'task_template_labels', order: ['template_id', 'label_id'] },
  ],
  searchFields: [],
  events: ['task_template.created'],
  eventData: {
    loadVisible: loadVisibleTaskTemplates,
    present: (ctx, rows) => presentTaskTemplates(ctx, rows, { includeMarkdown: true }),
  },
  routes: taskTemplateRoutes,
});
