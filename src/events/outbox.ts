// The event outbox (docs/decisions.md §7): a change writes its event row in the same transaction as the
// change itself, so an event exists exactly when the change committed. The webhook worker reads these rows
// and delivers them; the payload is rendered at delivery time from the entity as GET returns it.
import { randomUUID } from 'node:crypto';
import type { InsertQueryBuilder, InsertResult, QueryCreator } from 'kysely';
import { afterCommit, type Context } from '../context.ts';
import type { DB } from '../db/types.ts';
// Each module declares its event types in its resource.ts; EventType is their union, from the
// registry (which also lists them as EVENT_TYPES). Imported as a type only: the registry loads every
// service, and the services load this file.
import type { EventType } from '../modules/registry.ts';
import type { Attributes } from './changes.ts';
import { eventsCommitted } from './signal.ts';

/**
 * One event. `previous` is what a `*.updated` event says changed (changes.ts changedFrom): the changed
 * fields with their values before the change; no other event has it.
 */
export function recordEvent(
  ctx: Context,
  type: EventType,
  entityId: string,
  at: string,
  previous?: Attributes,
): Promise<void> {
  return recordEvents(ctx, type, [entityId], at, previous);
}

/** One event of `type` per entity, in one statement. */
async function recordEvents(
  ctx: Context,
  type: EventType,
  entityIds: string[],
  at: string,
  previous?: Attributes,
): Promise<void> {
  const write = eventsInsert(ctx, type, entityIds, at, previous);
  if (!write) return;
  await write(ctx.db).execute();
  // Once committed, this process's webhook worker has work (other processes hear NOTIFY).
  afterCommit(ctx, eventsCommitted);
}

/**
 * recordEvents for a change whose next statement can carry them: on PostgreSQL the events' INSERT is
 * returned, for that statement to run as a data-modifying CTE (tasks/repository.ts insertTasksWith), one round
 * trip less; on SQLite, whose CTEs cannot write and whose statements cost no round trip, they are
 * written at once and nothing is returned.
 */
export async function recordEventsAlongside(
  ctx: Context,
  type: EventType,
  entityIds: string[],
  at: string,
): Promise<EventsInsert | undefined> {
  if (ctx.dialect !== 'postgres' || !ctx.tx) {
    await recordEvents(ctx, type, entityIds, at);
    return undefined;
  }
  const write = eventsInsert(ctx, type, entityIds, at);
  // The commit runs the hook only if the statement that carries them, and everything else, succeeded.
  if (write) afterCommit(ctx, eventsCommitted);
  return write;
}

export type EventsInsert = (db: QueryCreator<DB>) => InsertQueryBuilder<DB, 'events', InsertResult>;

function eventsInsert(
  ctx: Context,
  type: EventType,
  entityIds: string[],
  at: string,
  previous?: Attributes,
): EventsInsert | undefined {
  if (entityIds.length === 0) return undefined;
  const previousAttributes = previous === undefined ? null : JSON.stringify(previous);
  const rows = entityIds.map((entityId) => ({
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    type,
    entity_type: type.slice(0, type.indexOf('.')),
    entity_id: entityId,
    actor_id: ctx.actor.id,
    created_at: at,
    previous_attributes: previousAttributes,
  }));
  return (db) => db.insertInto('events').values(rows);
}
