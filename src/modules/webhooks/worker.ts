// The webhook worker (docs/decisions.md §7), inside the server process or alone (`cairn worker`). It leases
// subscriptions that have work (queue.ts) and delivers each one's events in stream order, one
// at a time, with up to `concurrency` subscriptions at once, so a slow or dead endpoint holds up only
// its own subscriptions. It wakes on this process's commits (events/signal.ts), on NOTIFY from other
// processes (PostgreSQL), and once a second for retries that come due.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { contextOf, now } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { eventBody } from '../../events/feed.ts';
import { entityKey, renderEntities } from '../../events/render.ts';
import { onEventsCommitted } from '../../events/signal.ts';
import { type EventRow, findEvent, type Position, readEvents } from '../../events/stream.ts';
import { actingAs } from '../workspaces/service.ts';
import { createDeliverer, type Deliverer, type Outcome } from './deliver.ts';
import type { SubscriptionRow } from './queue.ts';
import * as queue from './queue.ts';
import { backoffMs, givesUp } from './schedule.ts';

export interface WorkerOptions {
  database: Database;
  publicUrl: string;
  allowPrivate: boolean;
  retentionDays: number;
  concurrency: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How often to look for due retries without a signal (ms). */
  pollMs?: number;
  deliverer?: Deliverer;
}

export interface Worker {
  /** Looks for work now (tests; signals do this by themselves). */
  wake(): void;
  /** Stops taking work and waits for deliveries under way to finish. */
  stop(): Promise<void>;
}

/** Events a subscription delivers, or how long it holds on, before its lease is given back. */
const TURN = 100;
const TURN_MS = 1000;
/**
 * How long a turn waits for new events once it has caught up, before giving the lease back. Under a
 * steady stream this keeps one turn going (one claim, one look-up of the creator, one release) rather
 * than starting one per commit.
 */
const LINGER_MS = 200;
const PRUNE_EVERY_MS = 3600_000;
const SCAN_GAP_MS = 50;

export function startWorker(options: WorkerOptions): Worker {
  const { database, log } = options;
  const { db, dialect } = database;
  const owner = randomUUID();
  const deliverer = options.deliverer ?? createDeliverer(options.allowPrivate);
  const running = new Set<Promise<void>>();
  let stopping = false;
  let scanning = false;
  let again = false;

  async function scan(): Promise<void> {
    if (stopping) return;
    if (scanning) {
      again = true;
      return;
    }
    scanning = true;
    try {
      do {
        again = false;
        const free = options.concurrency - running.size;
        if (free <= 0) break;
        for (const sub of await queue.claim(db, dialect, owner, now(), free)) {
          const work: Promise<void> = deliverSubscription(sub)
            .catch((error) => log.error({ err: error, subscription: sub.id }, 'webhook delivery failed'))
            .finally(() => {
              running.delete(work);
              wake();
            });
          running.add(work);
        }
      } while (again && !stopping);
    } catch (error) {
      log.error({ err: error }, 'webhook worker: cannot claim subscriptions');
    } finally {
      scanning = false;
    }
  }

  // Wake-ups come with every commit (and NOTIFY), dozens a second under writes; each would cost a
  // claim query, mostly for subscriptions already being delivered. So a burst makes one scan, and
  // scans start at most every SCAN_GAP_MS: the first after a quiet spell at once.
  let lastScan = 0;
  let pending: NodeJS.Timeout | undefined;
  /** Turns that have caught up and wait for the next commit. */
  const lingering = new Set<() => void>();
  /** True when woken (a commit, most likely) within `ms`, false when the time ran out. */
  function nextCommit(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const end = (woken: boolean) => {
        clearTimeout(timer);
        lingering.delete(done);
        resolve(woken);
      };
      const done = () => end(true);
      const timer = setTimeout(() => end(false), ms);
      lingering.add(done);
    });
  }

  function wake(): void {
    for (const done of lingering) done();
    if (pending || stopping) return;
    const wait = Math.max(0, lastScan + SCAN_GAP_MS - Date.now());
    pending = setTimeout(() => {
      pending = undefined;
      lastScan = Date.now();
      void scan();
    }, wait);
  }

  async function send(sub: SubscriptionRow, event: EventRow, data: unknown): Promise<Outcome> {
    const body = JSON.stringify(eventBody(event, sub.workspace_id, data));
    return deliverer.send(sub.hook_url, sub.secret, event.id, body);
  }

  async function deliverSubscription(claimed: SubscriptionRow): Promise<void> {
    let sub = claimed;
    const auth = await actingAs(db, sub.workspace_id, sub.created_by_id);
    if (!auth) {
      // The creator is gone: nothing of theirs is delivered any more.
      await queue.record(database, sub, owner, now(), null, {
        state: 'disabled',
        disabled_reason: 'creator_removed',
        disabled_at: now(),
        lease_owner: null,
        lease_until: null,
      });
      return;
    }
    const ctx = contextOf(database, auth);
    let cursor = queue.placeOf(sub);

    for (const replay of await queue.replays(db, sub)) {
      const event = await findEvent(db, sub.workspace_id, replay.event_id);
      const data = event && (await renderEntities(ctx, [event], options.publicUrl)).get(entityKey(event));
      const at = now();
      const outcome: Outcome =
        event && data !== undefined
          ? await send(sub, event, data)
          : {
              status: null,
              durationMs: 0,
              error: 'the event is no longer kept, or its creator cannot see it',
            };
      const ok = outcome.error === null;
      // A replay that gets through brings a disabled subscription back, from where it stopped.
      const revive: Partial<SubscriptionRow> = ok && sub.state === 'disabled' ? queue.IN_GOOD_STANDING : {};
      const attempt = attemptOf(replay.event_id, event?.type ?? sub.event, 1, true, outcome, null);
      if (!(await queue.record(database, sub, owner, at, attempt, revive))) return;
      await queue.dropReplay(db, sub, replay.id);
      sub = { ...sub, ...revive };
    }

    // Deliveries that got through are recorded together, once per batch of events: one transaction
    // rather than one per event. A process dying before the record sends them again (at least once).
    let done: queue.Attempt[] = [];
    const flush = async (): Promise<boolean> => {
      if (done.length === 0) return true;
      const changes = {
        cursor_tx: cursor.tx,
        cursor_seq: cursor.seq,
        attempts: 0,
        failing_since: null,
        next_attempt_at: null,
      };
      const held = await queue.record(database, sub, owner, now(), done, changes);
      sub = { ...sub, ...changes };
      done = [];
      return held;
    };

    if (sub.state === 'active' && (sub.next_attempt_at === null || sub.next_attempt_at <= now())) {
      let delivered = 0;
      const started = Date.now();
      let quiet = false;
      while (delivered < TURN && !stopping && Date.now() - started < TURN_MS) {
        const events = await readEvents(db, dialect, sub.workspace_id, cursor, [sub.event], 20);
        // Caught up, and no commit came while it waited: the turn ends. (A commit whose events it
        // cannot read yet, on PostgreSQL because an older transaction still runs, keeps it waiting.)
        if (events.length === 0 && quiet) break;
        const rendered = await renderEntities(ctx, events, options.publicUrl);
        for (const event of events) {
          const data = rendered.get(entityKey(event));
          // What the creator cannot see is not theirs to receive; the position moves past it.
          if (data === undefined) {
            cursor = { tx: event.tx, seq: event.seq };
            continue;
          }
          const outcome = await send(sub, event, data);
          const at = now();
          const attemptNo = sub.attempts + 1;
          if (outcome.error === null) {
            cursor = { tx: event.tx, seq: event.seq };
            done.push({ ...attemptOf(event.id, event.type, attemptNo, false, outcome, null), at });
            sub = { ...sub, attempts: 0, failing_since: null };
            delivered++;
            continue;
          }
          if (outcome.status === 410) {
            log.info({ subscription: sub.id }, 'webhook receiver answered 410: subscription removed');
            await queue.remove(database, sub);
            return;
          }
          if (!(await flush())) return;
          await failed(sub, cursor, event, attemptNo, outcome, at);
          return;
        }
        if (!(await flush())) return;
        if (events.length < 20) quiet = !(await nextCommit(LINGER_MS));
      }
    }
    if (!(await flush())) return;
    await queue.release(db, sub, owner, cursor);
  }

  /** A failed attempt at the head event: schedule the next one, or disable after three days. */
  async function failed(
    sub: SubscriptionRow,
    cursor: Position,
    event: EventRow,
    attemptNo: number,
    outcome: Outcome,
    at: string,
  ) {
    const failingSince = sub.failing_since ?? at;
    const base = {
      cursor_tx: cursor.tx,
      cursor_seq: cursor.seq,
      attempts: attemptNo,
      failing_since: failingSince,
      lease_owner: null,
      lease_until: null,
    };
    if (givesUp(failingSince, at)) {
      log.warn({ subscription: sub.id }, 'webhook failing for 3 days: subscription disabled');
      await queue.record(
        database,
        sub,
        owner,
        at,
        attemptOf(event.id, event.type, attemptNo, false, outcome, null),
        {
          ...base,
          state: 'disabled',
          disabled_reason: 'failing',
          disabled_at: at,
          next_attempt_at: null,
        },
      );
      return;
    }
    const next = new Date(Date.parse(at) + backoffMs(attemptNo, outcome.retryAfter)).toISOString();
    await queue.record(
      database,
      sub,
      owner,
      at,
      attemptOf(event.id, event.type, attemptNo, false, outcome, next),
      {
        ...base,
        next_attempt_at: next,
      },
    );
  }

  async function prune(): Promise<void> {
    try {
      const before = new Date(Date.now() - options.retentionDays * 86_400_000).toISOString();
      const n = await queue.prune(db, before);
      if (n > 0) log.info({ rows: n, before }, 'pruned old events and delivery attempts');
    } catch (error) {
      log.error({ err: error }, 'webhook worker: cannot prune');
    }
  }

  const unsubscribe = onEventsCommitted(wake);
  const unlisten = database.listen('cairn_events', wake);
  const poll = setInterval(wake, options.pollMs ?? 1000).unref();
  const pruning = setInterval(() => void prune(), PRUNE_EVERY_MS).unref();
  void prune();
  wake();

  let stopped: Promise<void> | undefined;
  return {
    wake,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        clearTimeout(pending);
        for (const done of lingering) done();
        clearInterval(poll);
        clearInterval(pruning);
        unsubscribe();
        await unlisten();
        while (scanning || running.size > 0) {
          await Promise.allSettled([...running, new Promise((r) => setTimeout(r, 10))]);
        }
        if (!options.deliverer) await deliverer.close();
      })();
      return stopped;
    },
  };
}

/** The worker as configured (main.ts, `cairn worker`). */
export function startWebhookWorker(database: Database, config: Config, log: WorkerOptions['log']): Worker {
  return startWorker({
    database,
    log,
    publicUrl: config.publicUrl,
    allowPrivate: config.webhookAllowPrivate,
    retentionDays: config.webhookRetentionDays,
    concurrency: config.webhookConcurrency,
  });
}

function attemptOf(
  eventId: string,
  eventType: string,
  attempt: number,
  replay: boolean,
  outcome: Outcome,
  nextAttemptAt: string | null,
): queue.Attempt {
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
