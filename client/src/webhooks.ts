// Verifying a webhook delivery (Standard Webhooks, on the `standardwebhooks` package): the signature over
// the raw body (any of several `v1,` signatures, so a rolled secret keeps working), a timestamp within 5
// minutes, and an id not seen before (the caller's store: a Set in memory, or a table).
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { CairnEvent } from './feed.ts';

export type { CairnEvent };

/** Where ids already handled are kept. `has` then `add`: a store shared by processes should make it atomic. */
export interface SeenIds {
  has(id: string): boolean | Promise<boolean>;
  add(id: string): unknown;
}

export type WebhookFailure = 'missing_headers' | 'bad_signature' | 'stale_timestamp' | 'replayed';

export class WebhookError extends Error {
  override readonly name = 'WebhookError';
  readonly reason: WebhookFailure;
  constructor(reason: WebhookFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * The event of a delivery, or a WebhookError naming why it is refused. `rawBody` is the body exactly as
 * received (parse nothing before: a re-serialized body does not match its signature).
 */
export async function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  rawBody: string | Uint8Array,
  options: { seen?: SeenIds | undefined } = {},
): Promise<CairnEvent> {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
  const values = Object.fromEntries(wanted.map((name) => [name, header(headers, name) ?? '']));
  let event: CairnEvent;
  try {
    event = new Webhook(secret).verify(body, values) as CairnEvent;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    throw new WebhookError(reasonOf(error.message), error.message);
  }
  const id = values['webhook-id']!;
  if (options.seen) {
    if (await options.seen.has(id)) throw new WebhookError('replayed', `delivery ${id} was already handled`);
    await options.seen.add(id);
  }
  return event;
}

function reasonOf(message: string): WebhookFailure {
  if (/timestamp too (old|new)/i.test(message)) return 'stale_timestamp';
  if (/missing required headers/i.test(message)) return 'missing_headers';
  return 'bad_signature';
}
