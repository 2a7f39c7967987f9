// Who may see and manage a webhook subscription: its creator, and the workspace's owners and admins.
// Anyone else is told it does not exist (404), like anything they cannot see.
import type { Actor } from '../../context.ts';

export function canManageSubscription(actor: Actor, subscription: { createdById: string }): boolean {
  return subscription.createdById === actor.id || actor.role === 'owner' || actor.role === 'admin';
}
