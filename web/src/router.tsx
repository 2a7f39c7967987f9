// The app's routes, typed (TanStack Router, code-based): public screens (sign in, password links, an
// invitation) and the signed-in layout (/app) whose beforeLoad sends a visitor without a session to
// sign in and back. A list's filters are its route's search params (lib/filters.ts), so a view is a URL.
import type { QueryClient } from '@tanstack/react-query';
import { createRoute, createRouter } from '@tanstack/react-router';
import { localPath, parseTaskListSearch } from './lib/filters.ts';
import { appRoute, rootRoute } from './routes/app.tsx';
import { AcceptInvitation } from './screens/AcceptInvitation.tsx';
import { teamBoardRoute } from './screens/board/routes.tsx';
import { documentRoute, teamDocumentsRoute } from './screens/documents/routes.tsx';
import { MyWork } from './screens/MyWork.tsx';
import { searchRoute } from './screens/palette/routes.tsx';
import { projectRoute, teamProjectsRoute } from './screens/projects/routes.tsx';
import { SetPassword } from './screens/SetPassword.tsx';
import { SignIn } from './screens/SignIn.tsx';
import { settingsRoute } from './screens/settings/routes.tsx';
import { TeamTasks } from './screens/TeamTasks.tsx';
import { taskRoute } from './screens/task/routes.tsx';

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; done?: 'password' } => {
    const redirectTo = localPath(search.redirect);
    return {
      ...(redirectTo ? { redirect: redirectTo } : {}),
      ...(search.done === 'password' ? { done: 'password' as const } : {}),
    };
  },
  component: SignIn,
});

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite/$token',
  component: AcceptInvitation,
});

// A one-time password link: the first start's setup link and a reset link are the same kind of page.
const passwordLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password/$token',
  component: SetPassword,
});

const myWorkRoute = createRoute({ getParentRoute: () => appRoute, path: '/', component: MyWork });

const teamTasksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/teams/$teamKey/tasks',
  validateSearch: parseTaskListSearch,
  component: TeamTasks,
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  inviteRoute,
  passwordLinkRoute,
  appRoute.addChildren([
    myWorkRoute,
    searchRoute,
    settingsRoute,
    teamTasksRoute,
    teamBoardRoute,
    teamProjectsRoute,
    projectRoute,
    teamDocumentsRoute,
    documentRoute,
    taskRoute,
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    // The queries' own cache decides freshness: the router does not keep a second copy of data.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
