// Webhook subscriptions (docs/decisions.md §7, docs/integrations.md): subscribe, change in place, roll the
// secret, list, remove, read the delivery log, replay.
// Delivery itself is the worker's (worker.ts, through queue.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterCommit, type Context, changedAt, now } from '../../context.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { listPage } from '../../db/listing.ts';
import { eventsCommitted } from '../../events/signal.ts';
import { head } from '../../events/stream.ts';
import { conflict, invalid, notFound } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { loadById } from '../../preconditions.ts';
import { EVENT_TYPES } from '../registry.ts';
import { overlaps, receiverOf } from './patterns.ts';
import { canManageSubscription } from './policy.ts';
import { IN_GOOD_STANDING } from './queue.ts';
import type { DeliveryRow, SubscriptionRow } from './repository.ts';
import * as repo from './repository.ts';
import type { WebhookSubscribeBody } from './schema.ts';
import { checkHookUrl, HookUrlError } from './ssrf.ts';

export function eventNames(): string[] {
  return [...EVENT_TYPES];
}

/** How long the secret replaced by a roll still signs deliveries. */
const PREVIOUS_SECRET_MS = 24 * 3600_000;

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The check of a subscription that needs no transaction: a hook URL of the right form whose host
 * resolves only to public addresses (unless private ones are allowed). Run before the transaction,
 * so a slow DNS answer holds no database connection. (`event` is the schema's enum.)
 */
export async function checkSubscription(body: WebhookSubscribeBody, allowPrivate: boolean): Promise<void> {
  if (body.hookUrl === undefined) return;
  try {
    await checkHookUrl(body.hookUrl, allowPrivate);
  } catch (error) {
    if (error instanceof HookUrlError) throw invalid('hookUrl', error.message);
    throw error;
  }
}

/**
 * POST /v1/webhooks/subscribe: a new subscription, starting at the end of the stream as it stands;
 * with `id`, a change of that one in place (changeSubscription).
 */
export async function upsertSubscription(
  ctx: Context,
  body: WebhookSubscribeBody,
): Promise<{ row: Omit<SubscriptionRow, 'seq'>; created: boolean }> {
  if (body.id !== undefined) return { row: await changeSubscription(ctx, body.id, body), created: false };
  const { hookUrl, event } = body;
  if (hookUrl === undefined) throw invalid('hookUrl', 'is required');
  if (event === undefined) throw invalid('event', 'is required');
  await repo.lockSubscriptionsOf(ctx.db, ctx.dialect, ctx.workspace.id, ctx.actor.id);
  await refuseOverlap(ctx, ctx.actor.id, null, hookUrl, event);
  const at = now();
  const start = await head(ctx.db, ctx.dialect, ctx.workspace.id);
  const row: Omit<SubscriptionRow, 'seq'> = {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    hook_url: hookUrl,
    event,
    secret: newSecret(),
    created_by_id: ctx.actor.id,
    cursor_tx: start.tx,
    cursor_seq: start.seq,
    ...IN_GOOD_STANDING,
    lease_owner: null,
    lease_until: null,
    created_at: at,
    updated_at: at,
    changed_at: at,
    previous_secret: null,
    previous_secret_expires_at: null,
  };
  await repo.insertSubscription(ctx.db, row);
  return { row, created: true };
}

/**
 * A subscription's hookUrl and event changed, its secret and place in the stream kept. An active one
 * starts afresh at its place: the head event is tried at once, at the new URL, and its three days
 * of retries count from now. A disabled one stays disabled (a retry of a delivery brings it back).
 */
async function changeSubscription(
  ctx: Context,
  ref: string,
  body: WebhookSubscribeBody,
): Promise<SubscriptionRow> {
  const existing = await loadSubscription(ctx, ref, true);
  const hookUrl = body.hookUrl ?? existing.hook_url;
  const event = body.event ?? existing.event;
  if (hookUrl === existing.hook_url && event === existing.event) return existing;
  await repo.lockSubscriptionsOf(ctx.db, ctx.dialect, ctx.workspace.id, existing.created_by_id);
  await refuseOverlap(ctx, existing.created_by_id, existing.id, hookUrl, event);
  const fresh =
    existing.state === 'active' ? { attempts: 0, failing_since: null, next_attempt_at: null } : {};
  const changes = {
    hook_url: hookUrl,
    event,
    changed_at: changedAt(existing.changed_at),
    ...fresh,
  };
  await repo.updateSubscription(ctx.db, ctx.workspace.id, existing.id, changes);
  afterCommit(ctx, eventsCommitted);
  return { ...existing, ...changes };
}

/**
 * 409 when another subscription of the same creator sends an event type this one would to the same
 * receiver (patterns.ts receiverOf): every such event would arrive twice. Subscriptions of other
 * people are not compared: each receives what its own creator may see, and is invisible to others.
 * Called under lockSubscriptionsOf.
 */
async function refuseOverlap(
  ctx: Context,
  creatorId: string,
  self: string | null,
  hookUrl: string,
  event: string,
): Promise<void> {
  const receiver = receiverOf(hookUrl);
  const clash = (await repo.subscriptionsOf(ctx.db, ctx.workspace.id, creatorId)).find(
    (s) => s.id !== self && receiverOf(s.hook_url) === receiver && overlaps(s.event, event),
  );
  if (!clash) return;
  throw conflict(
    `Subscription ${clash.id} already sends ${clash.event} to this hookUrl, which overlaps ${event}; change that subscription (POST with its id) or remove it first`,
  );
}

/**
 * POST /v1/webhooks/subscribe/{id}/roll-secret: a new secret. The one it replaces keeps signing
 * deliveries beside it for 24 hours, so a receiver can switch without missing one; a second roll
 * within that time ends the older secret at once (only one previous secret is kept).
 */
export async function rollSecret(ctx: Context, ref: string): Promise<string> {
  const existing = await loadSubscription(ctx, ref, true);
  const at = changedAt(existing.changed_at);
  const changes = {
    secret: newSecret(),
    previous_secret: existing.secret,
    previous_secret_expires_at: new Date(Date.parse(at) + PREVIOUS_SECRET_MS).toISOString(),
    changed_at: at,
  };
  await repo.updateSubscription(ctx.db, ctx.workspace.id, existing.id, changes);
  return changes.secret;
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
    // Kept for the log, in case the event is purged before the worker gets to it.
    event_type: delivery.event_type,
  });
  // Once committed, the worker of this process has work: the replay goes ahead of the stream.
  afterCommit(ctx, eventsCommitted);
  return { eventId: delivery.event_id, queuedAt: at };
}
