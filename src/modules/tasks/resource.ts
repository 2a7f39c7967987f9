// Tasks in the registry of resources (modules/registry.ts).
import type { SearchIndex, TaggedSearchIndex } from '../../db/search/index.ts';
import { defineResource } from '../resource.ts';
import { presentTasks } from './present.ts';
import { TASK_INDEX } from './repository.ts';
import taskRoutes from './routes.ts';
import { TASK_EXPANSIONS } from './schema.ts';
import { loadVisibleTasks } from './service.ts';

export const TASK = defineResource({
  kind: 'task',
  path: 'tasks',
  tables: [
    {
      name: 'tasks',
      booleans: ['priority'],
      dates: ['due_date'],
      order: ['seq'],
      index: TASK_INDEX as unknown as SearchIndex<never>,
      rowIndex: TASK_INDEX as unknown as TaggedSearchIndex<never>,
    },
    { name: 'task_label_links', order: ['task_id', 'label_id'] },
  ],
  searchFields: ['name', 'description', 'projectName', 'teamName', 'assigneeName'],
  events: ['task.created', 'task.updated', 'task.deleted', 'task.restored'],
  eventData: {
    loadVisible: loadVisibleTasks,
    present: (ctx, rows) =>
      presentTasks(ctx, rows, { expand: new Set(TASK_EXPANSIONS), includeMarkdown: true }),
  },
  routes: taskRoutes,
});
