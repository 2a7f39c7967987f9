// Webhook subscriptions (docs/decisions.md §7): subscribe, list, remove, read the delivery log, replay.
// Delivery itself is the worker's (worker.ts, through queue.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterCommit, type Context, now } from '../../context.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { listPage } from '../../db/listing.ts';
import { eventsCommitted } from '../../events/signal.ts';
import { head } from '../../events/stream.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { loadById } from '../../preconditions.ts';
import { EVENT_TYPES } from '../registry.ts';
import { canManageSubscription } from './policy.ts';
import { IN_GOOD_STANDING } from './queue.ts';
import type { DeliveryRow, SubscriptionRow } from './repository.ts';
import * as repo from './repository.ts';
import type { WebhookSubscribeBody } from './schema.ts';
import { checkHookUrl, HookUrlError } from './ssrf.ts';

export function eventNames(): string[] {
  return [...EVENT_TYPES];
}

/**
 * The checks of a subscription that need no transaction: a known event, and a hook URL of the right
 * form whose host resolves only to public addresses (unless private ones are allowed). Run before the
 * transaction, so a slow DNS answer holds no database connection.
 */
export async function checkSubscription(body: WebhookSubscribeBody, allowPrivate: boolean): Promise<void> {
  if (!(EVENT_TYPES as readonly string[]).includes(body.event)) {
    throw invalid('event', `unknown event; one of ${EVENT_TYPES.join(', ')}`);
  }
  try {
    await checkHookUrl(body.hookUrl, allowPrivate);
  } catch (error) {
    if (error instanceof HookUrlError) throw invalid('hookUrl', error.message);
    throw error;
  }
}

/** POST /v1/webhooks/subscribe: starts at the end of the stream as it stands. */
export async function subscribe(
  ctx: Context,
  body: WebhookSubscribeBody,
): Promise<{ row: Omit<SubscriptionRow, 'seq'> }> {
  const at = now();
  const start = await head(ctx.db, ctx.dialect, ctx.workspace.id);
  const row: Omit<SubscriptionRow, 'seq'> = {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    hook_url: body.hookUrl,
    event: body.event,
    secret: `whsec_${randomBytes(24).toString('base64')}`,
    created_by_id: ctx.actor.id,
    cursor_tx: start.tx,
    cursor_seq: start.seq,
    ...IN_GOOD_STANDING,
    lease_owner: null,
    lease_until: null,
    created_at: at,
    updated_at: at,
  };
  await repo.insertSubscription(ctx.db, row);
  return { row };
}

/**
 * A subscription the caller may manage, by id; 404 otherwise (another workspace's, another user's).
 * `forChange` locks it (PostgreSQL) and compares If-Match with its version.
 */
export function loadSubscription(ctx: Context, ref: string, forChange = false): Promise<SubscriptionRow> {
  return loadById(ctx, repo.SUBSCRIPTIONS, uuidRef(ref), {
    forChange,
    visible: (row) => canManageSubscription(ctx.actor, { createdById: row.created_by_id }),
  });
}

export async function unsubscribe(ctx: Context, ref: string): Promise<void> {
  const row = await loadSubscription(ctx, ref, true);
  await repo.deleteSubscription(ctx.db, ctx.workspace.id, row.id);
}

/** The caller's own subscriptions, oldest first. */
export function listSubscriptions(ctx: Context, page: PageRequest): Promise<Page<SubscriptionRow>> {
  return listPage(ctx, repo.SUBSCRIPTION_LIST, [repo.createdBy(ctx.actor.id)], page, false);
}

/** A subscription's delivery attempts, newest first. */
export async function listDeliveries(
  ctx: Context,
  ref: string,
  page: PageRequest,
): Promise<Page<DeliveryRow>> {
  const sub = await loadSubscription(ctx, ref);
  return listPage(ctx, repo.DELIVERY_LIST, [repo.ofSubscription(sub.id)], page, false);
}

/**
 * Queues one more delivery of an attempt's event; the worker sends it ahead of the subscription's
 * stream, even when the subscription is disabled (and a success re-enables it).
 */
export async function retryDelivery(
  ctx: Context,
  ref: string,
  deliveryRef: string,
): Promise<{ eventId: string; queuedAt: string }> {
  const sub = await loadSubscription(ctx, ref);
  const deliveryId = uuidRef(deliveryRef);
  const delivery = deliveryId
    ? await repo.findDelivery(ctx.db, ctx.workspace.id, sub.id, deliveryId)
    : undefined;
  if (!delivery) throw notFound('Delivery');
  const at = now();
  await repo.insertReplay(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    subscription_id: sub.id,
    event_id: delivery.event_id,
    created_at: at,
  });
  // Once committed, the worker of this process has work: the replay goes ahead of the stream.
  afterCommit(ctx, eventsCommitted);
  return { eventId: delivery.event_id, queuedAt: at };
}
