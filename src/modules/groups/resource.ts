// Teams and areas in the registry of resources (modules/registry.ts): one table, two kinds, each with
// its own routes and events. The table, its parts and the routes' plugin (both kinds' routes) are
// declared once, with teams.

import type { Context } from '../../context.ts';
import type { SearchIndex } from '../../db/search/index.ts';
import type { GroupKind } from '../../db/types.ts';
import { defineResource } from '../resource.ts';
import { presentGroups } from './present.ts';
import type { GroupRow } from './repository.ts';
import groupRoutes from './routes.ts';
import { GROUP_EXPANSIONS } from './schema.ts';
import { GROUP_INDEX, loadVisibleGroups } from './service.ts';

function eventData(kind: GroupKind) {
  return {
    loadVisible: (ctx: Context, ids: string[]) => loadVisibleGroups(ctx, kind, ids),
    present: (ctx: Context, rows: GroupRow[]) => presentGroups(ctx, rows, new Set(GROUP_EXPANSIONS)),
  };
}

export const TEAM = defineResource({
  kind: 'team',
  path: 'teams',
  tables: [
    { name: 'groups', order: ['seq'], index: GROUP_INDEX as SearchIndex<never> },
    { name: 'group_members', order: ['group_id', 'user_id'] },
    { name: 'task_statuses', order: ['id'] },
    { name: 'task_labels', order: ['id'] },
  ],
  searchFields: ['name'],
  events: ['team.created', 'team.updated'],
  eventData: eventData('team'),
  routes: groupRoutes,
});

export const AREA = defineResource({
  kind: 'area',
  path: 'areas',
  tables: [],
  searchFields: [],
  events: ['area.created', 'area.updated'],
  eventData: eventData('area'),
});
