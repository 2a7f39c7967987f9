import { type Static, Type } from 'typebox';
import {
  CursorQuery,
  LimitQuery,
  Nullable,
  NullableTimestamp,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../http/schemas.ts';

export const WebhookSubscribeBody = Type.Object(
  {
    hookUrl: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Absolute http(s) URL that receives POSTs',
    }),
    event: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'An event name (GET /v1/webhooks/events)',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ hookUrl: 'https://hooks.example.com/cairn', event: 'task.created' }],
  },
);
export type WebhookSubscribeBody = Static<typeof WebhookSubscribeBody>;

export const WebhookSubscribed = Type.Object({
  id: Uuid,
  secret: Type.String({ description: 'whsec_…: verifies webhook-signature; shown only here' }),
});

export const WebhookEventNames = Type.Object({ data: Type.Array(Type.String()) });

const STATES = ['active', 'disabled'] as const;
const REASONS = ['failing', 'creator_removed'] as const;

export const WebhookSubscription = Type.Object(
  {
    id: Uuid,
    hookUrl: Type.String(),
    event: Type.String(),
    state: StringEnum(STATES),
    disabledReason: Nullable(StringEnum(REASONS, { description: 'failing: 3 days of failed deliveries' })),
    disabledAt: NullableTimestamp,
    failingSince: Type.Union([Timestamp, Type.Null()], {
      description: 'When the event now retried first failed',
    }),
    nextAttemptAt: NullableTimestamp,
    createdById: Uuid,
    createdAt: Timestamp,
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
