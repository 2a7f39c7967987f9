// Projects' routes: a team's projects (`?status=<id>&archived=true`) and one project by its publicId.
// Their code (with markdown-it, for status updates) loads when one is first opened.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../routes/app.tsx';
import { parseProjectListSearch } from './search.ts';

export const teamProjectsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/teams/$teamKey/projects',
  validateSearch: parseProjectListSearch,
  component: lazyRouteComponent(() => import('./TeamProjects.tsx'), 'TeamProjects'),
});

export const projectRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$projectKey',
  component: lazyRouteComponent(() => import('./ProjectPage.tsx'), 'ProjectPage'),
});
