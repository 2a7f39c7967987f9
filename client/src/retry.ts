// The fetch every call goes through: a per-attempt timeout, and retries of what is safe to send again:
// network errors, timeouts, the statuses asked for (429 and 503), and a POST's 409 "still running".
// Hand-written (about 100 lines) rather than p-retry or ky: neither reads Retry-After and RateLimit-Reset
// from a fetch Response *and* knows that a POST may be repeated only with its Idempotency-Key, ky would
// replace openapi-fetch's request building, and each adds to the browser bundle. openapi-fetch's
// middleware cannot send a request again, so this is the custom `fetch` it documents for that.
import { CairnError, retryAfterSeconds } from './errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4). 1 turns retries off. */
  maxAttempts: number;
  /** No attempt starts, and no wait is begun, past this many ms after the first (default 60 000). */
  deadlineMs: number;
  /** The first backoff's ceiling; it doubles per attempt (default 500). */
  baseDelayMs: number;
  /** The largest wait, also for a Retry-After (default 30 000). */
  maxDelayMs: number;
  /** Statuses retried (default 429 and 503: rate limited, and the database could not answer in time). */
  statuses: number[];
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  deadlineMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  statuses: [429, 503],
};

/** The wait before attempt `attempt + 1`: what the server asked for, else exponential with jitter. */
function delayMs(attempt: number, response: Response | undefined, options: RetryOptions): number {
  const asked =
    retryAfterSeconds(response?.headers.get('retry-after') ?? null) ??
    (response?.status === 429 ? retryAfterSeconds(response.headers.get('ratelimit-reset')) : undefined);
  if (asked !== undefined) {
    // A little jitter on top, so that clients told the same second do not all come back at once.
    return Math.min(options.maxDelayMs, asked * 1000 + Math.random() * 250);
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A request may be sent again: any method but POST, and a POST carrying its Idempotency-Key. */
function repeatable(request: Request): boolean {
  return request.method !== 'POST' || request.headers.has('idempotency-key');
}

/**
 * The server's "a request with this Idempotency-Key is still running" (src/http/idempotency.ts): a 409
 * `conflict` whose `errors` names `/headers/idempotency-key`. The first request (an attempt of ours
 * whose answer was lost, or another process using the same key) answers shortly, and a retry with
 * the same key then gets its answer. Any other 409 is final.
 */
async function stillRunning(request: Request, response: Response): Promise<boolean> {
  if (response.status !== 409 || !request.headers.has('idempotency-key')) return false;
  try {
    const body = (await response.clone().json()) as { code?: unknown; errors?: { path?: unknown }[] };
    return (
      body.code === 'conflict' &&
      Array.isArray(body.errors) &&
      body.errors.some((e) => e?.path === '/headers/idempotency-key')
    );
  } catch {
    return false; // not JSON: not the server's marker
  }
}

/** `fetch` with a timeout per attempt and retries; failures without an answer become CairnErrors. */
export function retryingFetch(
  baseFetch: typeof fetch,
  options: RetryOptions,
  timeoutMs: number,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = Date.now();
    const retries = repeatable(request);
    const retryable = async (res: Response) =>
      options.statuses.includes(res.status) || (await stillRunning(request, res));
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([request.signal, timeout]);
      let response: Response | undefined;
      let failure: CairnError | undefined;
      try {
        response = await baseFetch(new Request(request.clone(), { signal }));
      } catch (error) {
        // The caller's own abort is theirs to handle, as with fetch itself.
        if (request.signal.aborted) throw request.signal.reason;
        failure = timeout.aborted
          ? new CairnError({
              code: 'timeout',
              status: 0,
              detail: `no answer within ${timeoutMs} ms`,
              cause: error,
            })
          : new CairnError({ code: 'network_error', status: 0, detail: describe(error), cause: error });
      }
      if (response && !(await retryable(response))) return response;
      const wait = delayMs(attempt, response, options);
      const last =
        !retries || attempt >= options.maxAttempts || Date.now() - started + wait > options.deadlineMs;
      if (last) {
        if (response) return response;
        throw failure;
      }
      // Free the connection of an answer we will not read.
      await response?.body?.cancel().catch(() => {});
      await sleep(wait, request.signal);
    }
  };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${message} (${cause.code}${cause.message ? `: ${cause.message}` : ''})` : message;
}
