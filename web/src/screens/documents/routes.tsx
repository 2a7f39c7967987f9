// Documents' routes: a team's documents (`?q=` words, `?deleted=true`) and one document by its publicId.
// Their code (with markdown-it) loads when one is first opened, not with the first screen.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../routes/app.tsx';
import { parseDocumentListSearch } from './search.ts';

export const teamDocumentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/teams/$teamKey/documents',
  validateSearch: parseDocumentListSearch,
  component: lazyRouteComponent(() => import('./TeamDocuments.tsx'), 'TeamDocuments'),
});

export const documentRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/documents/$docKey',
  component: lazyRouteComponent(() => import('./DocumentPage.tsx'), 'DocumentPage'),
});
