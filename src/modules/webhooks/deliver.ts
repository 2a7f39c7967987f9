// One webhook delivery over HTTP (docs/decisions.md §7, docs/integrations.md): POST the body, signed per
// Standard Webhooks with the subscription's secret (and, for a day, the one a roll replaced); 10 s for
// the whole exchange; redirects are not followed (a 3xx is a failure, like any other non-2xx). The
// socket connects only to addresses ssrf.ts has checked, unless private targets are allowed.
//
// undici is loaded with the first delivery, not with the server: most servers have no subscription,
// and undici (with Node's own copy, which it loads) is ~6 MB of code and data.
import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { checkLiteral, guardedLookup, HookUrlError, parseHookUrl } from './ssrf.ts';

const USER_AGENT = `Cairn-Webhooks/${process.env.npm_package_version ?? '0.1.0'}`;
const DELIVERY_TIMEOUT_MS = 10_000;

export interface Outcome {
  /** The answer's status; null when none came (refused, timed out, unreachable). */
  status: number | null;
  durationMs: number;
  /** Why it failed, for the delivery log; null on success. */
  error: string | null;
  /** Seconds the receiver asked to wait (Retry-After of a 429 or 503; negative for a past date), when it said. */
  retryAfter?: number;
}

/** One POST: where, signed by which secrets, and what it carries. */
interface Delivery {
  hookUrl: string;
  /** The subscription's secret, then the one a roll replaced while it still signs (service.ts). */
  secrets: readonly string[];
  /** webhook-id: the event's id, the same on every attempt. */
  messageId: string;
  eventType: string;
  subscriptionId: string;
  body: string;
}

export interface Deliverer {
  send(delivery: Delivery): Promise<Outcome>;
  close(): Promise<void>;
}

/**
 * The headers of a delivery: Standard Webhooks' three, with one `v1,` signature per secret, space
 * separated (the specification's form for a secret being rotated: a receiver accepts the message when
 * any signature verifies with its secret), and Cairn's two, so that one receiver URL can route an
 * event and pick its secret before reading the body.
 */
function deliveryHeaders(delivery: Delivery, timestamp: Date): Record<string, string> {
  const { messageId, body } = delivery;
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': delivery.secrets
      .map((secret) => new Webhook(secret).sign(messageId, timestamp, body))
      .join(' '),
    'cairn-event-type': delivery.eventType,
    'cairn-subscription-id': delivery.subscriptionId,
  };
}

/** An HTTP date in any of its three forms (RFC 9110 §5.6.7) starts with the day's name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Retry-After as the seconds it asks to wait (RFC 9110 §10.2.3: delay-seconds or an HTTP date),
 * negative for a date in the past; undefined for anything else. Date.parse alone is too lenient: it
 * reads `-5` and `1.5` as dates. Whether the wait is one to honour is schedule.ts's call.
 */
export function retryAfterSeconds(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.round((at - now) / 1000);
}

export function createDeliverer(allowPrivate: boolean): Deliverer {
  let undici: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const client = () =>
    (undici ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connect: allowPrivate ? {} : { lookup: guardedLookup as never },
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      }),
      request,
    })));
  return {
    async send(delivery) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const url = parseHookUrl(delivery.hookUrl);
        if (!allowPrivate) checkLiteral(url);
        const headers = deliveryHeaders(delivery, new Date());
        const { agent, request } = await client();
        const response = await request(url, {
          method: 'POST',
          dispatcher: agent,
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
          headers,
          body: delivery.body,
        });
        // The answer's body is not used, but must be read (or dropped) to free the connection.
        await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
        const status = response.statusCode;
        if (status >= 200 && status < 300) return { status, durationMs: elapsed(), error: null };
        const retryAfter =
          status === 429 || status === 503 ? retryAfterSeconds(response.headers['retry-after']) : undefined;
        return {
          status,
          durationMs: elapsed(),
          error: status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
          ...(retryAfter !== undefined ? { retryAfter } : {}),
        };
      } catch (error) {
        return { status: null, durationMs: elapsed(), error: describe(error) };
      }
    },
    close: async () => {
      if (undici) await (await undici).agent.close();
    },
  };
}

function describe(error: unknown): string {
  if (error instanceof HookUrlError) return `refused: ${error.message}`;
  const e = error as { name?: string; code?: string; message?: string; cause?: { message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT') {
    return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  if (e.code === 'EREFUSED' && e.message) return `refused: ${e.message}`;
  const message = e.message ?? String(error);
  return (e.code ? `${e.code}: ${message}` : message).slice(0, 500);
}
