import { type Static, Type } from 'typebox';
import {
  CursorQuery,
  LimitQuery,
  Nullable,
  NullableTimestamp,
  StringEnum,
  Timestamp,
  UpsertBody,
  Uuid,
} from '../../http/schemas.ts';
import { SUBSCRIBABLE } from './patterns.ts';

/** A subscription's `event`: a name, `*` or `<resource>.*` (patterns.ts). */
const SubscribedEvent = StringEnum(SUBSCRIBABLE, {
  description:
    'An event name (GET /v1/webhooks/events), `*` for every event, or `<resource>.*` for every event of one resource (`task.*`)',
});

const HookUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Absolute http(s) URL that receives POSTs. Private, loopback and link-local targets are refused unless the server runs with CAIRN_WEBHOOK_ALLOW_PRIVATE=true',
});

/**
 * Subscribe, or with `id` change that subscription in place (its secret and its place in the stream
 * stay). The same receiver with an overlapping event is 409 (docs/integrations.md).
 */
export const WebhookSubscribeBody = UpsertBody(
  { hookUrl: HookUrl, event: SubscribedEvent },
  ['hookUrl', 'event'],
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'A subscription id: change it' }),
    examples: [
      { hookUrl: 'https://hooks.example.com/cairn', event: 'task.created' },
      { hookUrl: 'https://hooks.example.com/cairn', event: '*' },
      { id: '0b8e5c3e-4f6a-4d2b-9a59-0d8f1c2b3a4e', event: 'task.*' },
    ],
  },
);
export type WebhookSubscribeBody = Static<typeof WebhookSubscribeBody>;

export const WebhookSubscribed = Type.Object({
  id: Uuid,
  secret: Type.String({ description: 'whsec_…: verifies webhook-signature; shown only here' }),
});

export const WebhookSecretRolled = Type.Object({
  secret: Type.String({
    description:
      'The new whsec_… secret, shown only here. Deliveries carry a signature by it and, for 24 hours, one by the secret it replaces',
  }),
});

export const WebhookEventNames = Type.Object({ data: Type.Array(Type.String()) });

const STATES = ['active', 'disabled'] as const;
const REASONS = ['failing', 'creator_removed'] as const;

export const WebhookSubscription = Type.Object(
  {
    id: Uuid,
    hookUrl: Type.String(),
    event: Type.String({ description: 'An event name, `*` or `<resource>.*`' }),
    state: StringEnum(STATES),
    disabledReason: Nullable(StringEnum(REASONS, { description: 'failing: 3 days of failed deliveries' })),
    disabledAt: NullableTimestamp,
    failingSince: Type.Union([Timestamp, Type.Null()], {
      description: 'When the event now retried first failed',
    }),
    nextAttemptAt: NullableTimestamp,
    createdById: Uuid,
    createdAt: Timestamp,
    updatedAt: Type.String({
      format: 'date-time',
      description:
        'When hookUrl, event or the secret last changed: the version ETag and If-Match carry (deliveries do not move it)',
    }),
    previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
      description:
        'Until when the secret replaced by the last roll still signs deliveries beside the current one; null when no roll is that recent',
    }),
  },
  { $id: 'WebhookSubscription' },
);
export type WebhookSubscription = Static<typeof WebhookSubscription>;

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    eventId: Uuid,
    eventType: Type.String(),
    attempt: Type.Integer({ description: 'Which attempt at this event (1 is the first)' }),
    replay: Type.Boolean({ description: 'Asked for by hand (retry)' }),
    statusCode: Nullable(Type.Integer({ description: 'null when no answer came' })),
    durationMs: Type.Integer(),
    error: Nullable(Type.String()),
    nextAttemptAt: NullableTimestamp,
    createdAt: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookListQuery = Type.Object({ limit: LimitQuery, cursor: CursorQuery });
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const SubscriptionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const WebhookRetryAccepted = Type.Object({
  eventId: Uuid,
  queuedAt: Timestamp,
});
