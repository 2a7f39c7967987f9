import { now } from '../../context.ts';
import type { DeliveryRow, SubscriptionRow } from './repository.ts';
import type { WebhookDelivery, WebhookSubscription } from './schema.ts';

export function presentSubscription(row: Omit<SubscriptionRow, 'seq'>): WebhookSubscription {
  return {
    id: row.id,
    hookUrl: row.hook_url,
    event: row.event,
    state: row.state,
    disabledReason: row.disabled_reason as WebhookSubscription['disabledReason'],
    disabledAt: row.disabled_at,
    failingSince: row.failing_since,
    nextAttemptAt: row.next_attempt_at,
    createdById: row.created_by_id,
    createdAt: row.created_at,
    updatedAt: row.changed_at,
    previousSecretExpiresAt: stillSigning(row.previous_secret_expires_at),
  };
}

/** The previous secret's expiry while it still signs; null once it has expired (or there is none). */
function stillSigning(expiresAt: string | null): string | null {
  return expiresAt !== null && Date.parse(expiresAt) > Date.parse(now()) ? expiresAt : null;
}

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: row.attempt,
    replay: Boolean(row.replay),
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
  };
}
