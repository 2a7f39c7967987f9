// Documents in the registry of resources (modules/registry.ts).
import type { SearchIndex } from '../../db/search/index.ts';
import { defineResource } from '../resource.ts';
import { presentDocuments } from './present.ts';
import documentRoutes from './routes.ts';
import { DOCUMENT_EXPANSIONS } from './schema.ts';
import { DOCUMENT_INDEX, loadVisibleDocuments } from './service.ts';

export const DOCUMENT = defineResource({
  kind: 'document',
  path: 'documents',
  tables: [{ name: 'documents', order: ['seq'], index: DOCUMENT_INDEX as SearchIndex<never> }],
  searchFields: ['name', 'description', 'teamName'],
  events: ['document.created', 'document.updated', 'document.deleted', 'document.restored'],
  eventData: {
    loadVisible: loadVisibleDocuments,
    present: (ctx, rows) =>
      presentDocuments(ctx, rows, { expand: new Set(DOCUMENT_EXPANSIONS), includeMarkdown: true }),
  },
  routes: documentRoutes,
});
