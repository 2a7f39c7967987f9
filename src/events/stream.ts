// Reading the event stream of a workspace in (tx, seq) order, the order in which it is safe to move
// past an event (migrations/0007_webhooks.ts): on PostgreSQL only events of transactions older than
// every one still running are returned, so nothing can later appear before a position already read.
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/types.ts';

/** A place in the stream: after the event with this (tx, seq). */
export interface Position {
  tx: number;
  seq: number;
}

export const START: Position = { tx: 0, seq: 0 };

export interface EventRow {
  tx: number;
  seq: number;
  id: string;
  type: string;
  entity_type: string;
  entity_id: string;
  actor_id: string;
  created_at: string;
  /** JSON; `*.updated` events only (events/changes.ts). */
  previous_attributes: string | null;
}

const COLUMNS = [
  'tx',
  'seq',
  'id',
  'type',
  'entity_type',
  'entity_id',
  'actor_id',
  'created_at',
  'previous_attributes',
] as const;

/** Only events whose transaction can no longer be overtaken (always true on SQLite). */
export function settled(dialect: Dialect) {
  return dialect === 'postgres'
    ? sql<SqlBool>`tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`
    : sql<SqlBool>`1 = 1`;
}

/**
 * Events after a place, `tx`/`seq` being values or column references. PostgreSQL seeks its index with
 * the row comparison. SQLite cannot: it read every event of the type up to the place (15 ms at 200,000
 * events, against 0.04 ms). There every event has tx 0 (no transaction ids; seq is commit order), so the
 * condition is an equality and a range, which it seeks. A database moved to SQLite must keep that true.
 */
export function isAfter(dialect: Dialect, alias: string, tx: unknown, seq: unknown) {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return dialect === 'postgres'
    ? sql<SqlBool>`(${column('tx')}, ${column('seq')}) > (${tx}, ${seq})`
    : sql<SqlBool>`${column('tx')} = 0 and ${column('seq')} > ${seq}`;
}

/**
 * The first `limit` events after a place, of `types` (all when empty). Several types are read as one
 * seek of events_stream_by_type per type, merged: `type in (…)` ordered by (tx, seq) has no index
 * that gives its order, and PostgreSQL's generic plan then reads every event after the place to find
 * a rare type's few (118 ms against 0.1 ms at 180,000 events; docs/performance.md "Webhook
 * subscriptions with patterns").
 */
export async function readEvents(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  after: Position,
  types: readonly string[],
  limit: number,
  entityId?: string,
): Promise<EventRow[]> {
  const from = (type?: string) => {
    let q = db
      .selectFrom('events')
      .select([...COLUMNS])
      .where('workspace_id', '=', workspaceId)
      .where(isAfter(dialect, '', after.tx, after.seq))
      .where(settled(dialect));
    if (type !== undefined) q = q.where('type', '=', type);
    if (entityId !== undefined) q = q.where('entity_id', '=', entityId);
    return q.orderBy('tx').orderBy('seq').limit(limit);
  };
  // One resource's events are few (events_by_entity): its types are a plain condition on them.
  if (entityId !== undefined) {
    const q = from();
    return (await (types.length > 0 ? q.where('type', 'in', types) : q).execute()) as EventRow[];
  }
  if (types.length <= 1) return (await from(types[0]).execute()) as EventRow[];
  // Each branch a derived table: SQLite refuses ORDER BY and LIMIT on a bare member of a UNION.
  const branch = (type: string, i: number) => db.selectFrom(from(type).as(`t${i}`)).selectAll();
  const [first, ...rest] = types.map(branch);
  const merged = rest.reduce((union, next) => union.unionAll(next), first!);
  return (await db
    .selectFrom(merged.as('e'))
    .selectAll()
    .orderBy('tx')
    .orderBy('seq')
    .limit(limit)
    .execute()) as EventRow[];
}

/** The position of one event, for `after=<event id>`; undefined when there is none (or it was pruned). */
export async function positionOf(
  db: Kysely<DB>,
  workspaceId: string,
  eventId: string,
): Promise<Position | undefined> {
  const row = await db
    .selectFrom('events')
    .select(['tx', 'seq'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', eventId)
    .executeTakeFirst();
  return row ? { tx: Number(row.tx), seq: Number(row.seq) } : undefined;
}

/** The end of the stream as it stands: where a new subscription starts. */
export async function head(db: Kysely<DB>, dialect: Dialect, workspaceId: string): Promise<Position> {
  const row = await db
    .selectFrom('events')
    .select(['tx', 'seq'])
    .where('workspace_id', '=', workspaceId)
    .where(settled(dialect))
    .orderBy('tx', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { tx: Number(row.tx), seq: Number(row.seq) } : START;
}

/** One event by id (a replay's); undefined when there is none, or it was pruned. */
export async function findEvent(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
): Promise<EventRow | undefined> {
  return (await db
    .selectFrom('events')
    .select([...COLUMNS])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()) as EventRow | undefined;
}
