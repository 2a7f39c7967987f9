// The event outbox (docs/decisions.md §7): a change writes its event row in the same transaction as the
// change itself, so an event exists exactly when the change committed. The webhook worker reads these rows
// and delivers them; the payload is rendered at delivery time from the entity as GET returns it.
import { randomUUID } from 'node:crypto';
import { afterCommit, type Context } from '../context.ts';
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

/** One event of `type` per entity, in one statement (a batch's creates). */
export async function recordEvents(
  ctx: Context,
  type: EventType,
  entityIds: string[],
  at: string,
  previous?: Attributes,
): Promise<void> {
  if (entityIds.length === 0) return;
  const previousAttributes = previous === undefined ? null : JSON.stringify(previous);
  await ctx.db
    .insertInto('events')
    .values(
      entityIds.map((entityId) => ({
        workspace_id: ctx.workspace.id,
        id: randomUUID(),
        type,
        entity_type: type.slice(0, type.indexOf('.')),
        entity_id: entityId,
        actor_id: ctx.actor.id,
        created_at: at,
        previous_attributes: previousAttributes,
      })),
    )
    .execute();
  // Once committed, this process's webhook worker has work (other processes hear NOTIFY).
  afterCommit(ctx, eventsCommitted);
}
