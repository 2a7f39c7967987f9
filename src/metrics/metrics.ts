// Prometheus metrics (docs/operations.md): every series Cairn exports, defined once here in prom-client's
// global registry (the one its cluster aggregator reads from each worker). Labels are bounded by design:
// route templates, methods, status classes, error codes and fixed causes; never an id, workspace, email
// or URL (src/metrics/metrics.test.ts walks every series to keep it so).

import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';
import { LeanHistogram, type Series } from './lean-histogram.ts';

let defaultsStarted = false;

/** Node's own metrics (event-loop delay, GC, heap, RSS), once per process. */
export function startDefaultMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics();
  // Gauges whose names end in _total, which Prometheus keeps for counters (promtool check metrics
  // refuses them); the same figures stay, by type, in nodejs_active_handles, _requests and _resources.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ]) {
    register.removeSingleMetric(name);
  }
}

const httpDuration = new LeanHistogram({
  name: 'cairn_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by route template, method and status class',
  labelNames: ['route', 'method', 'status_class'] as const,
  // Reads by id answer in a few ms, lists and writes in tens, text searches and large batches in hundreds.
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

let inFlight = 0;

/** A request arrived: counted in flight until requestLeft. A plain number, read at each scrape. */
export function requestArrived(): void {
  inFlight += 1;
}

export function requestLeft(): void {
  inFlight -= 1;
}

new Gauge({
  name: 'cairn_http_requests_in_flight',
  help: 'Requests received and not yet answered',
  collect() {
    this.set(inFlight);
  },
});

/**
 * The duration histogram's series for one route, method and status's class, made once and kept (the set
 * is bounded by the route table, the methods and seven classes). Found through maps keyed by the route
 * template and the method, strings that are the same each request, so a lookup hashes nothing new.
 */
export function requestDuration(route: string, method: string, status: number): Series {
  const statusClass = Math.min(STATUS_CLASSES.length - 1, Math.floor(status / 100));
  let byMethod = durationSeries.get(route);
  if (!byMethod) {
    byMethod = new Map();
    durationSeries.set(route, byMethod);
  }
  let byClass = byMethod.get(method);
  if (!byClass) {
    byClass = [];
    byMethod.set(method, byClass);
  }
  let series = byClass[statusClass];
  if (!series) {
    series = httpDuration.series({ route, method, status_class: STATUS_CLASSES[statusClass]! });
    byClass[statusClass] = series;
  }
  return series;
}
const durationSeries = new Map<string, Map<string, Series[]>>();
/** Status classes by index: a status of 6xx or more is `other` (index 6). */
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx', 'other'];

export const problems = new Counter({
  name: 'cairn_http_problems_total',
  help: 'Error answers by problem code (rate_limited, precondition_failed, unavailable, …)',
  labelNames: ['code'] as const,
});

export const unavailable = new Counter({
  name: 'cairn_unavailable_total',
  help: '503 unavailable answers by cause',
  labelNames: ['cause'] as const,
});

export const idempotentReplays = new Counter({
  name: 'cairn_idempotent_replays_total',
  help: 'Requests answered from the first response of their Idempotency-Key',
});

const statementDuration = new LeanHistogram({
  name: 'cairn_db_statement_duration_seconds',
  help: 'Database statement time seen by the server (including any wait for a lock), by kind',
  labelNames: ['kind'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
});

export const webhookDeliveries = new Counter({
  name: 'cairn_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed, gone)',
  labelNames: ['outcome'] as const,
});

export const webhookRetries = new Counter({
  name: 'cairn_webhook_retries_total',
  help: 'Webhook deliveries scheduled again after a failed attempt',
});

export const webhookDisabled = new Counter({
  name: 'cairn_webhook_subscriptions_disabled_total',
  help: 'Subscriptions this process disabled after failing too long (or a 410 Gone)',
});

export const streamsOpen = new Gauge({
  name: 'cairn_live_streams',
  help: 'Live streams (GET /v1/events/stream) open on this process',
});

export const streamsDropped = new Counter({
  name: 'cairn_live_streams_dropped_total',
  help: 'Live streams closed because their reader did not take what was sent (the buffer bound)',
});

export const webhookLag = new Histogram({
  name: 'cairn_webhook_delivery_lag_seconds',
  help: 'Time from an event being recorded to its delivery attempt (first attempts, not retries)',
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400],
});

/** Subscriptions by state, counted by a query at each scrape (trackWebhooks). */
type SubscriptionCounts = () => Promise<{ active: number; failing: number; disabled: number }>;
/** The events active subscriptions have yet to deliver, and the time of the oldest (trackWebhooks). */
type Backlog = () => Promise<{ waiting: number; oldestAt: string | null }>;
let webhookReads: { counts: SubscriptionCounts; backlog: Backlog } | undefined;

export function trackWebhooks(reads: { counts: SubscriptionCounts; backlog: Backlog }): void {
  webhookReads = reads;
}

// These gauges are read from the database, which every worker of the cluster script shares: the
// primary's aggregate takes one worker's figure (max), not the sum of N copies of it.
new Gauge({
  name: 'cairn_webhook_subscriptions',
  help: 'Webhook subscriptions by state: active, failing (retrying after a failed attempt), disabled',
  labelNames: ['state'] as const,
  aggregator: 'max',
  async collect() {
    if (!webhookReads) return;
    const counts = await webhookReads.counts();
    for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
  },
});

// One query at each scrape serves both backlog gauges (prom-client collects them at once).
let backlogRead: { at: number; value: ReturnType<Backlog> } | undefined;
function readBacklog(read: Backlog): ReturnType<Backlog> {
  const now = Date.now();
  if (!backlogRead || now - backlogRead.at > 1000) backlogRead = { at: now, value: read() };
  return backlogRead.value;
}

new Gauge({
  name: 'cairn_webhook_events_waiting',
  help: 'Events that active subscriptions cover and have not yet delivered (each subscription counted up to 1000)',
  aggregator: 'max',
  async collect() {
    if (!webhookReads) return;
    this.set((await readBacklog(webhookReads.backlog)).waiting);
  },
});

new Gauge({
  name: 'cairn_webhook_oldest_waiting_event_age_seconds',
  help: 'Age of the oldest event an active subscription has yet to deliver (0 when none waits)',
  aggregator: 'max',
  async collect() {
    if (!webhookReads) return;
    const { oldestAt } = await readBacklog(webhookReads.backlog);
    this.set(oldestAt ? Math.max(0, (Date.now() - Date.parse(oldestAt)) / 1000) : 0);
  },
});

const pools = new Set<pg.Pool>();

/** PostgreSQL pools whose size, use and waiters are reported (the server's own). */
export function trackPool(pool: pg.Pool): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

function poolGauge(name: string, help: string, read: (pool: pg.Pool) => number): void {
  new Gauge({
    name,
    help,
    collect() {
      let sum = 0;
      for (const pool of pools) sum += read(pool);
      this.set(sum);
    },
  });
}

poolGauge('cairn_db_pool_connections', 'PostgreSQL connections the pool holds', (p) => p.totalCount);
poolGauge(
  'cairn_db_pool_connections_in_use',
  'PostgreSQL connections checked out by requests',
  (p) => p.totalCount - p.idleCount,
);
poolGauge('cairn_db_pool_waiting', 'Requests waiting for a PostgreSQL connection', (p) => p.waitingCount);

const STATEMENT_KINDS = ['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback'];

/**
 * A statement's kind: its first keyword, from a fixed set ('other' for the rest). Read in place, a
 * character at a time: statement texts are mostly built afresh for each request, so a cache keyed by
 * the text would hash the whole of it every time.
 */
export function statementKind(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) <= 32) start += 1;
  for (const kind of STATEMENT_KINDS) if (keywordAt(text, start, kind)) return kind;
  return 'other';
}

/** Whether `text` has `word` (lower case) at `at`, in any case, followed by a non-letter. */
function keywordAt(text: string, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i += 1) {
    if ((text.charCodeAt(at + i) | 0x20) !== word.charCodeAt(i)) return false;
  }
  const next = text.charCodeAt(at + word.length) | 0x20;
  return !(next >= 97 && next <= 122);
}

const statementSeries = new Map(
  [...STATEMENT_KINDS, 'other'].map((kind) => [kind, statementDuration.series({ kind })]),
);

/** onStatement of the server's database (db/index.ts). */
export function observeStatement(text: string, ms: number): void {
  statementSeries.get(statementKind(text))!.observe(ms / 1000);
}

export { register };
