// The webhook tables: subscriptions (each its own delivery queue, migrations/0007_webhooks.ts), the
// log of delivery attempts, and replays asked for by hand.
import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import { defineOrder } from '../../db/keyset.ts';
import { tableListing } from '../../db/listing.ts';
import type {
  DB,
  WebhookDeliveriesTable,
  WebhookReplaysTable,
  WebhookSubscriptionsTable,
} from '../../db/types.ts';
import { isAfter, settled } from '../../events/stream.ts';
import type { RowKind } from '../../preconditions.ts';
import { EVENT_PATTERNS, typesOf } from './patterns.ts';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type ReplayRow = Selectable<WebhookReplaysTable>;

const SUBSCRIPTION_COLUMNS = [
  's.seq',
  's.workspace_id',
  's.id',
  's.hook_url',
  's.event',
  's.secret',
  's.created_by_id',
  's.cursor_tx',
  's.cursor_seq',
  's.state',
  's.disabled_reason',
  's.disabled_at',
  's.attempts',
  's.failing_since',
  's.next_attempt_at',
  's.lease_owner',
  's.lease_until',
  's.created_at',
  's.updated_at',
  's.changed_at',
  's.previous_secret',
  's.previous_secret_expires_at',
] as const;

const DELIVERY_COLUMNS = [
  'd.seq',
  'd.workspace_id',
  'd.id',
  'd.subscription_id',
  'd.event_id',
  'd.event_type',
  'd.attempt',
  'd.replay',
  'd.status_code',
  'd.duration_ms',
  'd.error',
  'd.next_attempt_at',
  'd.created_at',
] as const;

export async function insertSubscription(db: Kysely<DB>, row: Omit<SubscriptionRow, 'seq'>): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(row).execute();
}

/**
 * Subscriptions by id (preconditions.ts loadById). The version is changed_at, which a client's change
 * (hookUrl, event, a rolled secret) moves; the worker's bookkeeping moves updated_at, which is not a
 * version: a delivery in between would fail every If-Match (docs/reliability.md).
 */
export const SUBSCRIPTIONS: RowKind<SubscriptionRow> = {
  from: 'webhook_subscriptions as s',
  columns: SUBSCRIPTION_COLUMNS,
  name: 'webhook subscription',
  version: (r) => r.changed_at,
};

/** What a client changes of a subscription (service.ts), with the bookkeeping a change resets. */
export async function updateSubscription(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<Omit<SubscriptionRow, 'seq' | 'workspace_id' | 'id'>>,
): Promise<void> {
  await db
    .updateTable('webhook_subscriptions')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Every subscription of one creator (a handful: what the overlap check compares with). */
export function subscriptionsOf(
  db: Kysely<DB>,
  workspaceId: string,
  creatorId: string,
): Promise<Pick<SubscriptionRow, 'id' | 'hook_url' | 'event'>[]> {
  return db
    .selectFrom('webhook_subscriptions as s')
    .select(['s.id', 's.hook_url', 's.event'])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.created_by_id', '=', creatorId)
    .execute();
}

/**
 * Takes the lock on one creator's set of subscriptions until the transaction ends, so that two
 * subscribes of the same receiver at once check for overlap one after the other (the second sees the
 * first and is 409). PostgreSQL: a transaction-level advisory lock keyed by the workspace and the
 * creator, the same kind db/locks.ts takes for derived values; SQLite: nothing, its writers are
 * serialized.
 */
export async function lockSubscriptionsOf(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  creatorId: string,
) {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(${workspaceId}), hashtext(${`webhook_subscriptions:${creatorId}`}))`.execute(
    db,
  );
}

/** Removes a subscription with its log and queued replays. */
export async function deleteSubscription(db: Kysely<DB>, workspaceId: string, id: string): Promise<void> {
  await db
    .deleteFrom('webhook_replays')
    .where('workspace_id', '=', workspaceId)
    .where('subscription_id', '=', id)
    .execute();
  await db
    .deleteFrom('webhook_deliveries')
    .where('workspace_id', '=', workspaceId)
    .where('subscription_id', '=', id)
    .execute();
  await db
    .deleteFrom('webhook_subscriptions')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** GET /v1/webhooks/subscribe: a user's subscriptions, oldest first. */
export const SUBSCRIPTION_LIST = tableListing(
  defineOrder<SubscriptionRow>([
    { ref: 's.created_at', dir: 'asc', key: (r) => r.created_at },
    { ref: 's.id', dir: 'asc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('webhook_subscriptions as s').where('s.workspace_id', '=', workspaceId),
  SUBSCRIPTION_COLUMNS,
);

export function createdBy(userId: string) {
  return sql<SqlBool>`s.created_by_id = ${userId}`;
}

/** A subscription's delivery log, newest first. */
export const DELIVERY_LIST = tableListing(
  defineOrder<DeliveryRow>([
    { ref: 'd.created_at', dir: 'desc', key: (r) => r.created_at },
    { ref: 'd.id', dir: 'desc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('webhook_deliveries as d').where('d.workspace_id', '=', workspaceId),
  DELIVERY_COLUMNS,
);

export function ofSubscription(subscriptionId: string) {
  return sql<SqlBool>`d.subscription_id = ${subscriptionId}`;
}

export function findDelivery(
  db: Kysely<DB>,
  workspaceId: string,
  subscriptionId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries as d')
    .select(DELIVERY_COLUMNS)
    .where('d.workspace_id', '=', workspaceId)
    .where('d.subscription_id', '=', subscriptionId)
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export async function insertDeliveries(db: Kysely<DB>, rows: Omit<DeliveryRow, 'seq'>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

export async function insertReplay(db: Kysely<DB>, row: Omit<ReplayRow, 'seq'>): Promise<void> {
  await db.insertInto('webhook_replays').values(row).execute();
}

export function replaysOf(db: Kysely<DB>, workspaceId: string, subscriptionId: string): Promise<ReplayRow[]> {
  return db
    .selectFrom('webhook_replays')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('subscription_id', '=', subscriptionId)
    .orderBy('created_at')
    .orderBy('seq')
    .limit(20)
    .execute();
}

export async function deleteReplay(db: Kysely<DB>, workspaceId: string, id: string): Promise<void> {
  await db
    .deleteFrom('webhook_replays')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * SQL: a settled event after the subscription's place that its `event` covers (patterns.ts), written
 * per form so that each is a seek: a name probes the events of its type (events_stream_by_type), `*`
 * the stream itself (events_stream), and a `<resource>.*` each type it covers in turn, by name. One
 * condition matching the pattern's text, or a list of its types, would scan every event after the
 * place: a subscription's place stays at the last event it covers, and a rare type (`team.*`,
 * `project_template.*`) may have thousands of others after it.
 *
 * Each probe is "the first such event, in stream order" rather than EXISTS. PostgreSQL plans an EXISTS
 * for its first row and, finding a third of the events after any place (its guess for a row
 * comparison) and most of them of a common type, chose a sequential scan of the events for `*` and
 * `task.*`: 5 s a claim with 200,000 events (docs/performance.md "Webhook subscriptions with
 * patterns"). Asked for the first row in (tx, seq) order, only an index gives it without reading every
 * event, so each probe is an index seek whatever the statistics, in custom and generic plans alike.
 */
function coveredEventAfter(dialect: Dialect) {
  return perCoverage(
    (type) =>
      sql`(select 1 from events e where ${eventsAfter(dialect, type)} order by e.tx, e.seq limit 1) is not null`,
    (probes) => sql`(${sql.join(probes, sql` or `)})`,
  );
}

/** The settled events of s's workspace after s's place, of the type `type` selects (alias `e`). */
function eventsAfter(dialect: Dialect, type: RawBuilder<unknown>) {
  const after = isAfter(dialect, 'e', sql.ref('s.cursor_tx'), sql.ref('s.cursor_seq'));
  return sql`e.workspace_id = s.workspace_id and ${type} and ${after} and ${settled(dialect)}`;
}

/**
 * SQL over subscription `s`: `probe` of each type its `event` covers, joined by `combine`; `*` is one
 * probe of every type, a name one of that type, a `<resource>.*` one per type it covers (so that each
 * probe is an index seek, see coveredEventAfter).
 */
function perCoverage(
  probe: (type: RawBuilder<unknown>) => RawBuilder<unknown>,
  combine: (probes: RawBuilder<unknown>[]) => RawBuilder<unknown>,
) {
  const patterns = EVENT_PATTERNS.filter((p) => p !== '*').map((p) => {
    const probes = typesOf(p).map((t) => probe(sql`e.type = ${t}`));
    return sql`when ${p} then ${probes.length === 1 ? probes[0] : combine(probes)}`;
  });
  return sql<SqlBool>`(case s.event when '*' then ${probe(sql`1 = 1`)} ${sql.join(patterns, sql` `)}
    else ${probe(sql`e.type = s.event`)} end)`;
}

/** Events waiting are counted up to this many per subscription: a scrape must stay cheap. */
export const WAITING_CAP = 1000;

/**
 * The webhook backlog, for the metrics: the events active subscriptions have yet to deliver (each
 * subscription's counted up to WAITING_CAP) and the time of the oldest of them (null when none waits).
 */
export async function backlog(
  db: Kysely<DB>,
  dialect: Dialect,
): Promise<{ waiting: number; oldestAt: string | null }> {
  // A `<resource>.*` counts each of its types up to the cap; their sum is capped again, so that every
  // subscription counts up to WAITING_CAP (two-argument least/min: PostgreSQL's and SQLite's spelling).
  const capped = dialect === 'postgres' ? 'least' : 'min';
  const waiting = perCoverage(
    (type) =>
      sql`(select count(*) from (select 1 from events e where ${eventsAfter(dialect, type)} limit ${WAITING_CAP}) w)`,
    (probes) => sql`${sql.raw(capped)}(${sql.join(probes, sql` + `)}, ${WAITING_CAP})`,
  );
  const first = (type: RawBuilder<unknown>) =>
    sql`(select e.created_at from events e where ${eventsAfter(dialect, type)} order by e.tx, e.seq limit 1)`;
  // PostgreSQL's least() skips nulls; SQLite's min() of several is null if any is ('~' sorts last).
  const oldest = perCoverage(first, (probes) =>
    dialect === 'postgres'
      ? sql`least(${sql.join(probes)})`
      : sql`nullif(min(${sql.join(probes.map((p) => sql`coalesce(${p}, '~')`))}), '~')`,
  );
  const row = await db
    .selectFrom('webhook_subscriptions as s')
    .select([
      sql<number | string | null>`sum(${waiting})`.as('waiting'),
      sql<unknown>`min(${oldest})`.as('oldest'),
    ])
    .where('s.state', '=', 'active')
    .executeTakeFirst();
  const oldestAt = row?.oldest instanceof Date ? row.oldest.toISOString() : (row?.oldest as string | null);
  return { waiting: Number(row?.waiting ?? 0), oldestAt: oldestAt ?? null };
}

/**
 * Leases up to `n` subscriptions that have work now: a replay, or an active one past its next attempt
 * with a settled event it covers after its position. On PostgreSQL the candidates are locked with
 * SKIP LOCKED, so processes claiming at once split them instead of queueing on each other.
 */
export async function claimDue(
  db: Kysely<DB>,
  dialect: Dialect,
  owner: string,
  at: string,
  leaseUntil: string,
  n: number,
): Promise<SubscriptionRow[]> {
  const due = sql<SqlBool>`(s.lease_until is null or s.lease_until < ${at}) and (exists (select 1 from webhook_replays r where r.workspace_id = s.workspace_id and r.subscription_id = s.id)
    or (s.state = 'active' and (s.next_attempt_at is null or s.next_attempt_at <= ${at})
      and ${coveredEventAfter(dialect)}))`;
  const free = sql<SqlBool>`(lease_until is null or lease_until < ${at})`;
  const candidates = db
    .selectFrom('webhook_subscriptions as s')
    .select('s.seq')
    .where(due)
    .orderBy('s.next_attempt_at')
    .limit(n);
  const lease = (which: typeof candidates | number[]) =>
    db
      .updateTable('webhook_subscriptions')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where('seq', 'in', which)
      .where(free)
      .returningAll()
      .execute();
  if (dialect === 'postgres') return lease(candidates.forUpdate().skipLocked());
  // SQLite: look with a read first, so that an idle check does not take the write lock.
  const seqs = (await candidates.execute()).map((r) => Number(r.seq));
  return seqs.length === 0 ? [] : lease(seqs);
}

/**
 * Changes a subscription this process holds the lease of; false when it no longer does (the lease ran
 * out and another process took it, or the subscription was removed), and nothing changed.
 */
export async function updateHeld(
  db: Kysely<DB>,
  row: Pick<SubscriptionRow, 'workspace_id' | 'id'>,
  owner: string,
  changes: Partial<Omit<SubscriptionRow, 'seq' | 'workspace_id' | 'id'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_subscriptions')
    .set(changes)
    .where('workspace_id', '=', row.workspace_id)
    .where('id', '=', row.id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes up to `n` delivery attempts older than `before`; how many went. (Events are pruned by
 * events/prune.ts only, which records how far it went: the feed's cursor_expired depends on it.)
 */
export async function pruneDeliveries(db: Kysely<DB>, before: string, n: number): Promise<number> {
  const old = db.selectFrom('webhook_deliveries').select('seq').where('created_at', '<', before).limit(n);
  const result = await db.deleteFrom('webhook_deliveries').where('seq', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Subscriptions of every workspace by state, for the metrics (one grouped count; the operator's view). */
export async function countByState(
  db: Kysely<DB>,
): Promise<{ active: number; failing: number; disabled: number }> {
  const rows = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => [
      'state',
      eb.fn.countAll<number>().as('n'),
      eb.fn.count<number>('failing_since').as('failing'),
    ])
    .groupBy('state')
    .execute();
  const counts = { active: 0, failing: 0, disabled: 0 };
  for (const row of rows) {
    if (row.state === 'disabled') counts.disabled += Number(row.n);
    else {
      counts.active += Number(row.n) - Number(row.failing);
      counts.failing += Number(row.failing);
    }
  }
  return counts;
}
