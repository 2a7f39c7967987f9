// A warning line per failed delivery attempt (docs/integrations.md "Delivery, retries and what disables
// a subscription"), at most one a minute per subscription: a dead receiver retried often (a Retry-After
// of 1 s, a replay loop) writes one line a minute, whose `suppressed` says how many lines were left out
// since the last one written.
//
// Hand-written rather than a library: pino has no sampling of its own, and the rate limiters on npm
// (limiter, bottleneck, p-throttle) queue or delay calls, where this must drop lines and count them.
// It is a map of the last line per subscription, in this process (each worker process limits its
// own lines: N processes write at most N lines a minute for one subscription).
import type { FastifyBaseLogger } from 'fastify';

export interface FailedAttempt {
  subscription: string;
  event: string;
  eventType: string;
  attempt: number;
  replay: boolean;
  /** The receiver's status, null when no answer came. */
  status: number | null;
  error: string;
  /** When the event is tried again; null for a replay, and when the subscription is disabled. */
  nextAttemptAt: string | null;
}

const WINDOW_MS = 60_000;
/** Past this many subscriptions tracked, the ones quiet for a window are forgotten. */
const SWEEP_AT = 1000;

export class FailureLog {
  readonly #log: Pick<FastifyBaseLogger, 'warn'>;
  readonly #clock: () => number;
  /** Per subscription: when its last line was written, and how many were left out since. */
  readonly #last = new Map<string, { at: number; suppressed: number }>();

  constructor(log: Pick<FastifyBaseLogger, 'warn'>, clock: () => number = Date.now) {
    this.#log = log;
    this.#clock = clock;
  }

  failed(attempt: FailedAttempt): void {
    const at = this.#clock();
    const last = this.#last.get(attempt.subscription);
    if (last && at - last.at < WINDOW_MS) {
      last.suppressed++;
      return;
    }
    if (!last && this.#last.size >= SWEEP_AT) this.#sweep(at);
    this.#last.set(attempt.subscription, { at, suppressed: 0 });
    this.#log.warn({ ...attempt, suppressed: last?.suppressed ?? 0 }, 'webhook delivery attempt failed');
  }

  /** Forgets subscriptions whose last line is a window old (their count of left-out lines with them). */
  #sweep(at: number): void {
    for (const [id, last] of this.#last) if (at - last.at >= WINDOW_MS) this.#last.delete(id);
  }
}
