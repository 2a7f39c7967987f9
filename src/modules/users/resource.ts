// Users in the registry of resources (modules/registry.ts): no event is about a user and no route
// takes a user's id, but their names are searched, so import rebuilds their index.
import type { SearchIndex } from '../../db/search/index.ts';
import { defineResource } from '../resource.ts';
import userRoutes from './routes.ts';
import { USER_INDEX } from './service.ts';

export const USER = defineResource({
  kind: 'user',
  path: null,
  tables: [{ name: 'users', order: ['seq'], index: USER_INDEX as SearchIndex<never> }],
  searchFields: [],
  events: [],
  routes: userRoutes,
});
