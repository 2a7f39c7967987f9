// Settings' routes: /settings (to the profile), the person's screens, and the owners' (members,
// invitations, teams and areas, webhooks), each a child of the settings layout. Their code loads when
// Settings is first opened, not with the first screen (lazyRouteComponent: one chunk per module).
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { appRoute } from '../../routes/app.tsx';

const settingsLayoutRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./SettingsLayout.tsx'), 'SettingsLayout'),
});

const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/settings/profile', replace: true });
  },
});

const parent = () => settingsLayoutRoute;
const profile = () => import('./Profile.tsx');
const members = () => import('./Members.tsx');
const byKey = () => import('./ByKey.tsx');

const profileRoute = createRoute({
  getParentRoute: parent,
  path: 'profile',
  component: lazyRouteComponent(profile, 'Profile'),
});
const passwordRoute = createRoute({
  getParentRoute: parent,
  path: 'password',
  component: lazyRouteComponent(profile, 'Password'),
});
const sessionsRoute = createRoute({
  getParentRoute: parent,
  path: 'sessions',
  component: lazyRouteComponent(() => import('./Sessions.tsx'), 'Sessions'),
});
const tokensRoute = createRoute({
  getParentRoute: parent,
  path: 'tokens',
  component: lazyRouteComponent(() => import('./Tokens.tsx'), 'Tokens'),
});
const membersRoute = createRoute({
  getParentRoute: parent,
  path: 'members',
  component: lazyRouteComponent(members, 'Members'),
});
const invitationsRoute = createRoute({
  getParentRoute: parent,
  path: 'invitations',
  component: lazyRouteComponent(members, 'Invitations'),
});
const teamsRoute = createRoute({
  getParentRoute: parent,
  path: 'teams',
  component: lazyRouteComponent(() => import('./Teams.tsx'), 'Teams'),
});
const teamRoute = createRoute({
  getParentRoute: parent,
  path: 'teams/$key',
  component: lazyRouteComponent(byKey, 'TeamSettings'),
});
const areaRoute = createRoute({
  getParentRoute: parent,
  path: 'areas/$key',
  component: lazyRouteComponent(byKey, 'AreaSettings'),
});
const webhooksRoute = createRoute({
  getParentRoute: parent,
  path: 'webhooks',
  component: lazyRouteComponent(() => import('./Webhooks.tsx'), 'Webhooks'),
});
const webhookRoute = createRoute({
  getParentRoute: parent,
  path: 'webhooks/$id',
  component: lazyRouteComponent(byKey, 'WebhookSettings'),
});

export const settingsRoute = settingsLayoutRoute.addChildren([
  settingsIndexRoute,
  profileRoute,
  passwordRoute,
  sessionsRoute,
  tokensRoute,
  membersRoute,
  invitationsRoute,
  teamsRoute,
  teamRoute,
  areaRoute,
  webhooksRoute,
  webhookRoute,
]);
