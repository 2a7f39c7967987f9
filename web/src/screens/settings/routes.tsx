// Settings' routes: /settings (to the profile), the person's screens, and the owners' (members,
// invitations, teams and areas, webhooks), each a child of the settings layout.
import { createRoute, redirect } from '@tanstack/react-router';
import { appRoute } from '../../routes/app.tsx';
import { GroupEditor } from './GroupEditor.tsx';
import { Invitations, Members } from './Members.tsx';
import { Password, Profile } from './Profile.tsx';
import { Sessions } from './Sessions.tsx';
import { SettingsLayout } from './SettingsLayout.tsx';
import { Teams } from './Teams.tsx';
import { Tokens } from './Tokens.tsx';
import { WebhookDetail } from './WebhookDetail.tsx';
import { Webhooks } from './Webhooks.tsx';

const settingsLayoutRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: SettingsLayout,
});

const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/settings/profile', replace: true });
  },
});

const profileRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'profile',
  component: Profile,
});
const passwordRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'password',
  component: Password,
});
const sessionsRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'sessions',
  component: Sessions,
});
const tokensRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'tokens',
  component: Tokens,
});
const membersRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'members',
  component: Members,
});
const invitationsRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'invitations',
  component: Invitations,
});
const teamsRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'teams',
  component: Teams,
});
const webhooksRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'webhooks',
  component: Webhooks,
});

const teamRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'teams/$key',
  component: function TeamSettings() {
    const { key } = teamRoute.useParams();
    return <GroupEditor key={`team-${key}`} kind="team" groupKey={key} />;
  },
});

const areaRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'areas/$key',
  component: function AreaSettings() {
    const { key } = areaRoute.useParams();
    return <GroupEditor key={`area-${key}`} kind="area" groupKey={key} />;
  },
});

const webhookRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: 'webhooks/$id',
  component: function WebhookSettings() {
    const { id } = webhookRoute.useParams();
    return <WebhookDetail key={id} id={id} />;
  },
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
