// The routes every feature hangs its own under: the root, and the signed-in layout (/app) whose
// beforeLoad sends a visitor without a session to sign in and back. A feature's routes live in its own
// folder (`getParentRoute: () => appRoute`) and web/src/router.tsx puts them in the tree.
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, Outlet, redirect } from '@tanstack/react-router';
import { meQuery } from '../api/index.ts';
import { RouteError } from '../components/RouteError.tsx';
import { Shell } from '../components/Shell.tsx';
import { NotFound } from '../screens/NotFound.tsx';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
});

export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    return { me };
  },
  component: Shell,
});
