// The webhook worker (docs/decisions.md §7), inside the server process or alone (`cairn worker`). It leases
// subscriptions that have work (queue.ts) and gives each a turn (turn.ts) that delivers its events in
// stream order, one at a time, with up to `concurrency` subscriptions at once, so a slow or dead
// endpoint holds up only its own subscriptions. It wakes on this process's commits that recorded events
// (events/signal.ts), on NOTIFY from other processes (PostgreSQL), and once a second for retries that
// come due.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import { now } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { onEventsCommitted } from '../../events/signal.ts';
import { createDeliverer, type Deliverer } from './deliver.ts';
import { FailureLog } from './failure-log.ts';
import * as queue from './queue.ts';
import { SubscriptionTurn, type TurnHost } from './turn.ts';

export interface WorkerOptions {
  database: Database;
  publicUrl: string;
  allowPrivate: boolean;
  retentionDays: number;
  concurrency: number;
  log: TurnHost['log'];
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

const PRUNE_EVERY_MS = 3600_000;
const SCAN_GAP_MS = 50;

export function startWorker(options: WorkerOptions): Worker {
  const worker = new DeliveryWorker(options);
  return { wake: () => worker.wake(), stop: () => worker.stop() };
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

class DeliveryWorker {
  readonly #options: WorkerOptions;
  readonly #host: TurnHost;
  /** Turns under way. */
  readonly #running = new Set<Promise<void>>();
  /** Turns that have caught up and wait for the next commit. */
  readonly #lingering = new Set<() => void>();
  #stopping = false;
  #scanning = false;
  /** Woken during a scan: the scan looks again. */
  #again = false;
  #lastScan = 0;
  #pending: NodeJS.Timeout | undefined;
  #stopped: Promise<void> | undefined;
  readonly #unsubscribe: () => void;
  readonly #unlisten: () => Promise<void>;
  readonly #poll: NodeJS.Timeout;
  readonly #pruning: NodeJS.Timeout;

  /** Starts listening, pruning and looking for work at once. */
  constructor(options: WorkerOptions) {
    this.#options = options;
    this.#host = {
      database: options.database,
      owner: randomUUID(),
      publicUrl: options.publicUrl,
      deliverer: options.deliverer ?? createDeliverer(options.allowPrivate),
      log: options.log,
      failures: new FailureLog(options.log),
      stopping: () => this.#stopping,
      nextCommit: (ms) => this.#nextCommit(ms),
    };
    this.#unsubscribe = onEventsCommitted(() => this.wake());
    this.#unlisten = options.database.listen('cairn_events', () => this.wake());
    this.#poll = setInterval(() => this.wake(), options.pollMs ?? 1000).unref();
    this.#pruning = setInterval(() => void this.#prune(), PRUNE_EVERY_MS).unref();
    void this.#prune();
    this.wake();
  }

  /**
   * Wake-ups come with every commit that recorded events (and NOTIFY), dozens a second under writes;
   * each would cost a claim query, mostly for subscriptions already being delivered. So a burst makes
   * one scan, and scans start at most every SCAN_GAP_MS: the first after a quiet spell at once.
   */
  wake(): void {
    for (const done of this.#lingering) done();
    if (this.#pending || this.#stopping) return;
    const wait = Math.max(0, this.#lastScan + SCAN_GAP_MS - Date.now());
    this.#pending = setTimeout(() => {
      this.#pending = undefined;
      this.#lastScan = Date.now();
      void this.#scan();
    }, wait);
  }

  /** Stops taking work and waits for the turns under way. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#stopping = true;
      clearTimeout(this.#pending);
      for (const done of this.#lingering) done();
      clearInterval(this.#poll);
      clearInterval(this.#pruning);
      this.#unsubscribe();
      await this.#unlisten();
      while (this.#scanning || this.#running.size > 0) {
        await Promise.allSettled([...this.#running, new Promise((r) => setTimeout(r, 10))]);
      }
      if (!this.#options.deliverer) await this.#host.deliverer.close();
    })();
    return this.#stopped;
  }

  /** Claims as many subscriptions with work as there is room for, and starts their turns. */
  async #scan(): Promise<void> {
    if (this.#stopping) return;
    if (this.#scanning) {
      this.#again = true;
      return;
    }
    this.#scanning = true;
    const { database, owner, log } = this.#host;
    try {
      do {
        this.#again = false;
        const free = this.#options.concurrency - this.#running.size;
        if (free <= 0) break;
        for (const sub of await queue.claim(database.db, database.dialect, owner, now(), free)) {
          this.#startTurn(sub);
        }
      } while (this.#again && !this.#stopping);
    } catch (error) {
      log.error({ err: error }, 'webhook worker: cannot claim subscriptions');
    } finally {
      this.#scanning = false;
    }
  }

  /** A claimed subscription's turn, tracked until it ends; its end makes room, so the worker looks again. */
  #startTurn(sub: queue.SubscriptionRow): void {
    const turn: Promise<void> = new SubscriptionTurn(this.#host, sub)
      .run()
      .catch((error) => this.#host.log.error({ err: error, subscription: sub.id }, 'webhook delivery failed'))
      .finally(() => {
        this.#running.delete(turn);
        this.wake();
      });
    this.#running.add(turn);
  }

  /** True when woken (a commit, most likely) within `ms`, false when the time ran out. */
  #nextCommit(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const end = (woken: boolean) => {
        clearTimeout(timer);
        this.#lingering.delete(done);
        resolve(woken);
      };
      const done = () => end(true);
      const timer = setTimeout(() => end(false), ms);
      this.#lingering.add(done);
    });
  }

  /** Deletes events and delivery attempts older than the retention. */
  async #prune(): Promise<void> {
    const { database, log } = this.#host;
    try {
      const before = new Date(Date.now() - this.#options.retentionDays * 86_400_000).toISOString();
      const n = await queue.prune(database.db, before);
      if (n > 0) log.info({ rows: n, before }, 'pruned old events and delivery attempts');
    } catch (error) {
      log.error({ err: error }, 'webhook worker: cannot prune');
    }
  }
}
