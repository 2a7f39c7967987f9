// One subscription's turn with the webhook worker (worker.ts): while this process holds its lease, the
// replays asked for, then its events in stream order, one at a time, each recorded with what became
// of it (queue.ts). The turn ends when it has caught up and no commit comes for a moment, after TURN
// events or TURN_MS, at the first failure (retried later, schedule.ts), or when the lease is lost.

import type { FastifyBaseLogger } from 'fastify';
import { type Context, contextOf, now } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { eventBody } from '../../events/feed.ts';
import { entityKey, renderEntities } from '../../events/render.ts';
import { type EventRow, findEvent, type Position, readEvents } from '../../events/stream.ts';
import { webhookDeliveries, webhookDisabled, webhookLag, webhookRetries } from '../../metrics/metrics.ts';
import { actingAs } from '../workspaces/service.ts';
import type { Deliverer, Outcome } from './deliver.ts';
import type { FailureLog } from './failure-log.ts';
import { readTypes } from './patterns.ts';
import type { Attempt, SubscriptionRow } from './queue.ts';
import * as queue from './queue.ts';
import { backoffMs, givesUp } from './schedule.ts';

/** Events a subscription delivers, or how long it holds on, before its lease is given back. */
const TURN = 100;
const TURN_MS = 1000;
/** Events read at a time. */
const PAGE = 20;
/**
 * How long a turn waits for new events once it has caught up, before giving the lease back. Under a
 * steady stream this keeps one turn going (one claim, one look-up of the creator, one release) rather
 * than starting one per commit.
 */
const LINGER_MS = 200;

/** What a turn needs of the worker running it. */
export interface TurnHost {
  database: Database;
  /** The lease owner: this worker. */
  owner: string;
  publicUrl: string;
  deliverer: Deliverer;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The warning line per failed attempt, rate-limited per subscription. */
  failures: FailureLog;
  stopping(): boolean;
  /** True when woken (a commit, most likely) within `ms`, false when the time ran out. */
  nextCommit(ms: number): Promise<boolean>;
}

export class SubscriptionTurn {
  readonly #host: TurnHost;
  /** The subscription as this turn has left it. */
  #sub: SubscriptionRow;
  /** How far its stream has been delivered (or passed over). */
  #cursor: Position;
  /**
   * Deliveries that got through, recorded together once per page of events: one transaction rather
   * than one per event. A process dying before the record sends them again (at least once).
   */
  #done: Attempt[] = [];

  constructor(host: TurnHost, claimed: SubscriptionRow) {
    this.#host = host;
    this.#sub = claimed;
    this.#cursor = queue.placeOf(claimed);
  }

  /** The whole turn; the lease is given back at its end, unless it was lost or a failure was recorded. */
  async run(): Promise<void> {
    const { database, owner } = this.#host;
    const auth = await actingAs(database.db, this.#sub.workspace_id, this.#sub.created_by_id);
    if (!auth) return this.#creatorGone();
    const ctx = contextOf(database, auth);
    if (!(await this.#replays(ctx))) return;
    const sub = this.#sub;
    const due = sub.state === 'active' && (sub.next_attempt_at === null || sub.next_attempt_at <= now());
    if (due && !(await this.#stream(ctx))) return;
    if (!(await this.#flush())) return;
    await queue.release(database.db, this.#sub, owner, this.#cursor);
  }

  /** The creator is gone: nothing of theirs is delivered any more. */
  async #creatorGone(): Promise<void> {
    await queue.record(this.#host.database, this.#sub, this.#host.owner, now(), null, {
      state: 'disabled',
      disabled_reason: 'creator_removed',
      disabled_at: now(),
      lease_owner: null,
      lease_until: null,
    });
  }

  /** The deliveries asked for again, ahead of the stream; false when the lease was lost. */
  async #replays(ctx: Context): Promise<boolean> {
    const { database, owner, publicUrl } = this.#host;
    for (const replay of await queue.replays(database.db, this.#sub)) {
      const sub = this.#sub;
      const event = await findEvent(database.db, sub.workspace_id, replay.event_id);
      const data = event && (await renderEntities(ctx, [event], publicUrl)).get(entityKey(event));
      const at = now();
      const outcome: Outcome =
        event && data !== undefined
          ? await this.#send(event, data)
          : {
              status: null,
              durationMs: 0,
              error: 'the event is no longer kept, or its creator cannot see it',
            };
      // An event no longer kept: the type recorded when the replay was queued (the subscription's
      // `event`, perhaps a pattern, only for a replay queued before migration 0014).
      const type = event?.type ?? replay.event_type ?? sub.event;
      const ok = outcome.error === null;
      const attempt = attemptOf(replay.event_id, type, 1, true, outcome, null);
      if (!ok) this.#logFailure(attempt);
      // A replay that gets through brings a disabled subscription back, from where it stopped.
      const revive: Partial<SubscriptionRow> = ok && sub.state === 'disabled' ? queue.IN_GOOD_STANDING : {};
      if (!(await queue.record(database, sub, owner, at, attempt, revive))) return false;
      await queue.dropReplay(database.db, sub, replay.id);
      this.#sub = { ...sub, ...revive };
    }
    return true;
  }

  /**
   * The subscription's events from its place, a page at a time, until the turn is over; false when it
   * ended early (a failure recorded, a 410, the lease lost) and the lease is not to be given back.
   */
  async #stream(ctx: Context): Promise<boolean> {
    const { database, publicUrl } = this.#host;
    let delivered = 0;
    const started = Date.now();
    let quiet = false;
    while (delivered < TURN && !this.#host.stopping() && Date.now() - started < TURN_MS) {
      const sub = this.#sub;
      const events = await readEvents(
        database.db,
        database.dialect,
        sub.workspace_id,
        this.#cursor,
        readTypes(sub.event),
        PAGE,
      );
      // Caught up, and no commit came while it waited: the turn ends. (A commit whose events it
      // cannot read yet, on PostgreSQL because an older transaction still runs, keeps it waiting.)
      if (events.length === 0 && quiet) break;
      const rendered = await renderEntities(ctx, events, publicUrl);
      const sent = await this.#deliverPage(events, rendered);
      if (sent === null) return false;
      delivered += sent;
      if (!(await this.#flush())) return false;
      if (events.length < PAGE) quiet = !(await this.#host.nextCommit(LINGER_MS));
    }
    return true;
  }

  /** A page of events in order: how many got through, or null when one failed (the turn is over). */
  async #deliverPage(events: EventRow[], rendered: Map<string, unknown>): Promise<number | null> {
    let delivered = 0;
    for (const event of events) {
      const data = rendered.get(entityKey(event));
      // What the creator cannot see is not theirs to receive; the position moves past it.
      if (data === undefined) {
        this.#cursor = { tx: event.tx, seq: event.seq };
        continue;
      }
      const outcome = await this.#send(event, data);
      const at = now();
      const attemptNo = this.#sub.attempts + 1;
      if (attemptNo === 1) webhookLag.observe((Date.parse(at) - Date.parse(event.created_at)) / 1000);
      if (outcome.error !== null) {
        await this.#undelivered(event, attemptNo, outcome, at);
        return null;
      }
      this.#cursor = { tx: event.tx, seq: event.seq };
      this.#done.push({ ...attemptOf(event.id, event.type, attemptNo, false, outcome, null), at });
      this.#sub = { ...this.#sub, attempts: 0, failing_since: null };
      delivered++;
    }
    return delivered;
  }

  async #send(event: EventRow, data: unknown): Promise<Outcome> {
    const sub = this.#sub;
    const outcome = await this.#host.deliverer.send({
      hookUrl: sub.hook_url,
      secrets: secretsOf(sub, now()),
      messageId: event.id,
      eventType: event.type,
      subscriptionId: sub.id,
      body: JSON.stringify(eventBody(event, sub.workspace_id, data)),
    });
    const kind = outcome.error === null ? 'delivered' : outcome.status === 410 ? 'gone' : 'failed';
    webhookDeliveries.inc({ outcome: kind });
    return outcome;
  }

  /** One warning line for a failed attempt (failure-log.ts keeps a dead receiver from flooding the log). */
  #logFailure(attempt: Attempt): void {
    this.#host.failures.failed({
      subscription: this.#sub.id,
      event: attempt.eventId,
      eventType: attempt.eventType,
      attempt: attempt.attempt,
      replay: attempt.replay,
      status: attempt.status,
      error: attempt.error ?? '',
      nextAttemptAt: attempt.nextAttemptAt,
    });
  }

  /** The deliveries that got through, recorded with the place reached; false when the lease was lost. */
  async #flush(): Promise<boolean> {
    if (this.#done.length === 0) return true;
    const changes = {
      cursor_tx: this.#cursor.tx,
      cursor_seq: this.#cursor.seq,
      attempts: 0,
      failing_since: null,
      next_attempt_at: null,
    };
    const held = await queue.record(
      this.#host.database,
      this.#sub,
      this.#host.owner,
      now(),
      this.#done,
      changes,
    );
    this.#sub = { ...this.#sub, ...changes };
    this.#done = [];
    return held;
  }

  /** The head event did not get through: a 410 removes the subscription; anything else is a failure. */
  async #undelivered(event: EventRow, attemptNo: number, outcome: Outcome, at: string): Promise<void> {
    if (outcome.status === 410) {
      this.#host.log.info(
        { subscription: this.#sub.id },
        'webhook receiver answered 410: subscription removed',
      );
      await queue.remove(this.#host.database, this.#sub);
      return;
    }
    if (!(await this.#flush())) return;
    await this.#failed(event, attemptNo, outcome, at);
  }

  /** A failed attempt at the head event: schedule the next one, or disable after three days. */
  async #failed(event: EventRow, attemptNo: number, outcome: Outcome, at: string): Promise<void> {
    const { database, owner, log } = this.#host;
    const sub = this.#sub;
    const failingSince = sub.failing_since ?? at;
    const base = {
      cursor_tx: this.#cursor.tx,
      cursor_seq: this.#cursor.seq,
      attempts: attemptNo,
      failing_since: failingSince,
      lease_owner: null,
      lease_until: null,
    };
    if (givesUp(failingSince, at)) {
      const attempt = attemptOf(event.id, event.type, attemptNo, false, outcome, null);
      this.#logFailure(attempt);
      log.warn({ subscription: sub.id }, 'webhook failing for 3 days: subscription disabled');
      webhookDisabled.inc();
      await queue.record(database, sub, owner, at, attempt, {
        ...base,
        state: 'disabled',
        disabled_reason: 'failing',
        disabled_at: at,
        next_attempt_at: null,
      });
      return;
    }
    const next = new Date(Date.parse(at) + backoffMs(attemptNo, outcome.retryAfter)).toISOString();
    const attempt = attemptOf(event.id, event.type, attemptNo, false, outcome, next);
    this.#logFailure(attempt);
    webhookRetries.inc();
    await queue.record(database, sub, owner, at, attempt, { ...base, next_attempt_at: next });
  }
}

/** The secrets a delivery is signed with: the current one, and the one a roll replaced until it expires. */
function secretsOf(
  sub: Pick<SubscriptionRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  at: string,
): string[] {
  const previous = sub.previous_secret;
  const expires = sub.previous_secret_expires_at;
  return previous !== null && expires !== null && Date.parse(expires) > Date.parse(at)
    ? [sub.secret, previous]
    : [sub.secret];
}

function attemptOf(
  eventId: string,
  eventType: string,
  attempt: number,
  replay: boolean,
  outcome: Outcome,
  nextAttemptAt: string | null,
): Attempt {
  return {
    eventId,
    eventType,
    attempt,
    replay,
    status: outcome.status,
    durationMs: outcome.durationMs,
    error: outcome.error,
    nextAttemptAt,
  };
}
