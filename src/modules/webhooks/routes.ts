// /v1/webhooks (docs/decisions.md §7).
import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { Empty, errors, Page } from '../../http/schemas.ts';
import { presentDelivery, presentSubscription } from './present.ts';
import {
  DeliveryParams,
  SubscriptionParams,
  WebhookDelivery,
  WebhookEventNames,
  WebhookListQuery,
  WebhookRetryAccepted,
  WebhookSecretRolled,
  WebhookSubscribeBody,
  WebhookSubscribed,
  WebhookSubscription,
} from './schema.ts';
import * as service from './service.ts';

const tags = ['webhooks'];

export default async function webhookRoutes(app: App): Promise<void> {
  const { database, cursors, config } = app.cairn;
  app.addSchema(WebhookSubscription);
  app.addSchema(WebhookDelivery);

  app.get(
    '/v1/webhooks/events',
    {
      schema: {
        tags,
        operationId: 'listWebhookEvents',
        summary: 'The event names a subscription can name',
        response: { 200: WebhookEventNames, ...errors() },
      },
    },
    async () => ({ data: service.eventNames() }),
  );

  app.post(
    '/v1/webhooks/subscribe',
    {
      // Only a new subscription's answer shows the secret; an update's 200 is kept for a replay.
      config: { secretInAnswer: [201] },
      schema: {
        tags,
        operationId: 'subscribeWebhook',
        summary:
          'Subscribe a URL to an event or a pattern of events, or change a subscription when id is given',
        description:
          "Without `id`: a new subscription, answered `201 {id, secret}` (the secret only here). With `id`: that subscription gets the hookUrl and event given, keeping its secret and its place in the stream, answered `200` with the subscription; `If-Match` applies. The same hookUrl with an event that overlaps one of the caller's other subscriptions is `409`, naming that subscription.",
        body: WebhookSubscribeBody,
        response: {
          200: Type.Ref('WebhookSubscription'),
          201: WebhookSubscribed,
          ...errors('not_found', 'conflict'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await service.checkSubscription(body, config.webhookAllowPrivate);
      const { row, created } = await inTransaction(database, auth(request), (ctx) =>
        service.upsertSubscription(ctx, body),
      );
      if (created) return reply.code(201).send({ id: row.id, secret: row.secret });
      return reply.code(200).send(presentSubscription(row));
    },
  );

  app.post(
    '/v1/webhooks/subscribe/:id/roll-secret',
    {
      config: { secretInAnswer: true },
      schema: {
        tags,
        operationId: 'rollWebhookSecret',
        summary: "Replace a subscription's secret; the old one still signs deliveries for 24 hours",
        description:
          'Answers the new secret (only here). For 24 hours each delivery carries two `v1,` signatures in `webhook-signature`, by the new secret and by the old one, so a receiver verifying with either accepts it; then only the new one signs. A second roll within the 24 hours ends the older secret at once.',
        params: SubscriptionParams,
        response: { 200: WebhookSecretRolled, ...errors('not_found') },
      },
    },
    async (request) => {
      const secret = await inTransaction(database, auth(request), (ctx) =>
        service.rollSecret(ctx, request.params.id),
      );
      return { secret };
    },
  );

  app.get(
    '/v1/webhooks/subscribe',
    {
      schema: {
        tags,
        operationId: 'listWebhookSubscriptions',
        summary: "The caller's subscriptions (without secrets), oldest first, with their state",
        querystring: WebhookListQuery,
        response: { 200: Page(Type.Ref('WebhookSubscription')), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const paging = openPaging(cursors, ctx, 'webhooks.list', null, request.query);
      const page = await service.listSubscriptions(ctx, paging);
      return { ...page, data: page.data.map(presentSubscription) };
    },
  );

  app.get(
    '/v1/webhooks/subscribe/:id',
    {
      schema: {
        tags,
        operationId: 'getWebhookSubscription',
        summary: 'A subscription (without its secret), with its state',
        params: SubscriptionParams,
        response: { 200: Type.Ref('WebhookSubscription'), ...errors('not_found') },
      },
    },
    async (request) =>
      presentSubscription(
        await service.loadSubscription(readContext(database, auth(request)), request.params.id),
      ),
  );

  app.delete(
    '/v1/webhooks/subscribe/:id',
    {
      schema: {
        tags,
        operationId: 'unsubscribeWebhook',
        summary: 'Remove a subscription',
        params: SubscriptionParams,
        response: { 204: Empty, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) => service.unsubscribe(ctx, request.params.id));
      return reply.code(204).send();
    },
  );

  app.get(
    '/v1/webhooks/subscribe/:id/deliveries',
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: "A subscription's delivery attempts, newest first",
        params: SubscriptionParams,
        querystring: WebhookListQuery,
        response: { 200: Page(Type.Ref('WebhookDelivery')), ...errors('not_found', 'invalid_cursor') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      // A cursor of one subscription's log is not another's.
      const paging = openPaging(cursors, ctx, 'webhooks.deliveries', request.params.id, request.query);
      const page = await service.listDeliveries(ctx, request.params.id, paging);
      return { ...page, data: page.data.map(presentDelivery) };
    },
  );

  app.post(
    '/v1/webhooks/subscribe/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: "Send an attempt's event again (queued; the delivery log shows the outcome)",
        params: DeliveryParams,
        response: { 202: WebhookRetryAccepted, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      const out = await inTransaction(database, auth(request), (ctx) =>
        service.retryDelivery(ctx, request.params.id, request.params.deliveryId),
      );
      return reply.code(202).send(out);
    },
  );
}
