// The settings screens opened by a key in the path: a team, an area, a webhook subscription.
import { getRouteApi } from '@tanstack/react-router';
import { GroupEditor } from './GroupEditor.tsx';
import { WebhookDetail } from './WebhookDetail.tsx';

const teamRoute = getRouteApi('/app/settings/teams/$key');
const areaRoute = getRouteApi('/app/settings/areas/$key');
const webhookRoute = getRouteApi('/app/settings/webhooks/$id');

// Keyed by the path's key: another team's editor starts from that team's lists, not this one's drafts.
export function TeamSettings() {
  const { key } = teamRoute.useParams();
  return <GroupEditor key={`team-${key}`} kind="team" groupKey={key} />;
}

export function AreaSettings() {
  const { key } = areaRoute.useParams();
  return <GroupEditor key={`area-${key}`} kind="area" groupKey={key} />;
}

export function WebhookSettings() {
  const { id } = webhookRoute.useParams();
  return <WebhookDetail key={id} id={id} />;
}
