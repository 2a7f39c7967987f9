// The search page's route: /search?q=…, the palette's searches as a page that can be bookmarked.
import { createRoute } from '@tanstack/react-router';
import { parseSearchPage } from '../../lib/search-words.ts';
import { appRoute } from '../../routes/app.tsx';
import { SearchPage } from './SearchPage.tsx';

export const searchRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/search',
  validateSearch: parseSearchPage,
  component: SearchPage,
});
