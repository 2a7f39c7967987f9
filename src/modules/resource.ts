// What a resource declares once, in its module's resource.ts, for the registry (registry.ts) to hand
// to every shared part that needs to know each resource: the application's routes, the event
// renderer, the outbox's event types, the transfer's tables, the rate limiter's text-search fields
// and the guard tests.
import type { Context } from '../context.ts';
import type { SearchIndex, TaggedSearchIndex } from '../db/search/index.ts';
import type { DB } from '../db/types.ts';
import type { App } from '../http/app-type.ts';

/** A table as `cairn export` writes it and `cairn import` reads it. */
export interface TableSpec {
  name: keyof DB;
  /** Columns that order the rows (unique within a workspace): the export's order and its keyset. */
  order: string[];
  /** Its search index, rebuilt from the imported rows. */
  index?: SearchIndex<never>;
  /** Tasks: the part of their index entry their INSERT sets (PostgreSQL's tsvector columns). */
  rowIndex?: TaggedSearchIndex<never>;
  /** Columns stored as 0/1 on SQLite and boolean on PostgreSQL: true/false in the file. */
  booleans?: readonly string[];
  /** Timestamp columns whose names do not end in `_at` (those are timestamps already): text on SQLite. */
  dates?: readonly string[];
}

/**
 * An event's `data`: the entities of a page of events as a reader sees them. Both steps take the
 * whole page of one kind, so rendering costs a query or a few per kind, never one per event.
 */
export interface EventData<Row> {
  /** The rows of these ids (UUIDs) that ctx may see; hidden, missing and foreign ones are left out. */
  loadVisible(ctx: Context, ids: string[]): Promise<Row[]>;
  /** The rows as GET with expand=all shows them (without Markdown), each with its id. */
  present(ctx: Context, rows: Row[], publicUrl: string): Promise<{ id: string }[]>;
}

export interface Resource<Kind extends string = string, Event extends string = string> {
  /** Its events' entity type (`task`), the first part of their type. */
  kind: Kind;
  /** The collection of its id routes (`/v1/<path>/{id}`); null when it has none. */
  path: string | null;
  /** Its tables for export and import, its own first, then those of its parts (a task's labels). */
  tables: readonly TableSpec[];
  /** Query fields of its `/search` route that hold text to match (rate-limit.ts counts those). */
  searchFields: readonly string[];
  /** The types of the events its changes write (outbox.ts), in the order the API lists them. */
  events: readonly Event[];
  /** How its events' data is made; absent for a resource no event is about. */
  eventData?: EventData<unknown>;
  /**
   * Its routes' plugin (its routes.ts), registered by app.ts in the registry's order; absent when
   * another resource's plugin serves it too (areas are served by teams' plugin).
   */
  routes?: (app: App) => Promise<void>;
}

/**
 * A resource, with its kind and event types kept literal (the registry's `Kind` and `EventType`
 * follow from them) and its event data's row type checked here, then erased: the renderer only
 * passes what `loadVisible` returned to `present`.
 */
export function defineResource<const Kind extends string, const Event extends `${Kind}.${string}`, Row>(
  resource: Omit<Resource<Kind, Event>, 'eventData'> & { eventData?: EventData<Row> },
): Resource<Kind, Event> {
  return resource as Resource<Kind, Event>;
}
