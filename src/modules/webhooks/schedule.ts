// When a failed delivery is tried again (docs/decisions.md §7): exponential steps from 5 s to a day, each
// moved by up to ±10 % so that many subscriptions failing together do not retry in lockstep; the
// receiver's own Retry-After (429, 503) wins when it is a wait from now to a day (0 is taken as 1 s).
// One that is negative, in the past, beyond a day or not a number is the receiver's mistake, not a
// request: the normal backoff applies, so a receiver cannot make us retry in a tight loop or park a
// subscription for years. A subscription whose head event has failed for three days is disabled.
const STEPS_S = [5, 60, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 24 * 3600];
const GIVE_UP_AFTER_MS = 3 * 24 * 3600 * 1000;
const MAX_WAIT_S = 24 * 3600;

/** Milliseconds to wait after the `attempt`-th failure (1 for the first). */
export function backoffMs(attempt: number, retryAfterS?: number, random = Math.random): number {
  if (retryAfterS !== undefined && retryAfterS >= 0 && retryAfterS <= MAX_WAIT_S) {
    return Math.max(retryAfterS, 1) * 1000;
  }
  const step = STEPS_S[Math.min(attempt, STEPS_S.length) - 1]!;
  return Math.round(step * 1000 * (0.9 + 0.2 * random()));
}

/** Whether a head event failing since `since` has failed long enough to disable its subscription. */
export function givesUp(since: string, at: string): boolean {
  return Date.parse(at) - Date.parse(since) >= GIVE_UP_AFTER_MS;
}
