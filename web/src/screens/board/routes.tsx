// A team's board: /teams/<CODE>/board, with the list's filters as its search params (lib/filters.ts),
// so a board can be bookmarked and shared as it is filtered. Its code (dnd-kit) loads when a board is
// first opened, not with the first screen.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { parseTaskListSearch } from '../../lib/filters.ts';
import { appRoute } from '../../routes/app.tsx';

export const teamBoardRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/teams/$teamKey/board',
  validateSearch: parseTaskListSearch,
  component: lazyRouteComponent(() => import('./Board.tsx'), 'Board'),
});
