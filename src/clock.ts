// The time rows are stamped with (context.ts now). Tests move it forward instead of sleeping to put
// two writes a known distance apart; timers and everything else keep the real time.

let aheadMs = 0;

export function now(): string {
  return new Date(Date.now() + aheadMs).toISOString();
}

/** Tests: from now on this process's timestamps are `ms` later, as if that much time had passed. */
export function advanceClock(ms: number): void {
  aheadMs += ms;
}
