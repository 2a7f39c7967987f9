// Webhook subscriptions (Settings, owners): list, subscribe, roll the secret, remove, the delivery
// log and retrying a delivery. A secret is in the answer to subscribe or roll only, never kept here.
import type { Item } from '@cairn/client';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { cairn } from './client.ts';

type WebhookSubscription = Item<'listWebhookSubscriptions'>;
export type WebhookDelivery = Item<'listWebhookDeliveries'>;

/** What a subscription may name: an event, `*` or `<resource>.*`. */
export type EventPattern = Extract<
  NonNullable<Parameters<typeof cairn.subscribeWebhook>[0]>['body'],
  { hookUrl: string }
>['event'];

const DELIVERY_PAGE = 50;

export const webhooksQuery = queryOptions({
  queryKey: ['webhooks'],
  queryFn: async ({ signal }) => {
    const found: WebhookSubscription[] = [];
    for await (const sub of cairn.paginate('listWebhookSubscriptions', { signal })) found.push(sub);
    return found;
  },
});

/** The event names a subscription may name, besides `*` and `<resource>.*`. */
export const webhookEventsQuery = queryOptions({
  queryKey: ['webhooks', 'event-names'],
  queryFn: async ({ signal }) => (await cairn.listWebhookEvents({ signal })).data,
  staleTime: Number.POSITIVE_INFINITY,
});

export function webhookQuery(id: string) {
  return queryOptions({
    queryKey: ['webhooks', id],
    queryFn: ({ signal }) => cairn.getWebhookSubscription({ params: { path: { id } }, signal }),
  });
}

/** A subscription's attempts, newest first, a page at a time. */
export function deliveriesQuery(id: string) {
  return infiniteQueryOptions({
    queryKey: ['webhooks', id, 'deliveries'],
    queryFn: ({ pageParam, signal }) =>
      cairn.listWebhookDeliveries({
        params: {
          path: { id },
          query: { limit: DELIVERY_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
        },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
}

/** Subscribes; the answer's secret is shown once. */
export async function subscribe(input: { hookUrl: string; event: EventPattern }) {
  const made = await cairn.subscribeWebhook({ body: input });
  if (!('secret' in made)) throw new Error('Cairn changed an existing subscription instead of making one.');
  return made;
}

export async function rollSecret(id: string): Promise<string> {
  return (await cairn.rollWebhookSecret({ params: { path: { id } } })).secret;
}

export async function unsubscribe(id: string): Promise<void> {
  await cairn.unsubscribeWebhook({ params: { path: { id } } });
}

export async function retryDelivery(input: { id: string; deliveryId: string }): Promise<void> {
  await cairn.retryWebhookDelivery({ params: { path: input } });
}
