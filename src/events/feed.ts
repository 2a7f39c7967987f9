// GET /v1/events: the event stream as a reader sees it. Each item is exactly the webhook body
// ({id, type, createdAt, workspaceId, data}, and previousAttributes on `*.updated` events), with `data`
// rendered for the reader; an event about
// something the reader cannot see is skipped, so a page may hold fewer than `limit` items while
// `hasMore` is true. The position after a page is always returned, so a poller keeps it and asks again.
import type { Context } from '../context.ts';
import type { Attributes } from './changes.ts';
import { entityKey, renderEntities } from './render.ts';
import { type EventRow, type Position, readEvents } from './stream.ts';

export interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  workspaceId: string;
  data: unknown;
  /**
   * `*.updated` events only: the changed fields with their values before the change, as recorded with
   * it (events/changes.ts); null on an event recorded before the version that records them.
   */
  previousAttributes?: Attributes | null;
}

/** Whether events of this type carry previousAttributes. */
function carriesChanges(type: string): boolean {
  return type.endsWith('.updated');
}

/** The body of an event: what the feed lists and a webhook delivery posts. */
export function eventBody(row: EventRow, workspaceId: string, data: unknown): EventBody {
  const body: EventBody = { id: row.id, type: row.type, createdAt: row.created_at, workspaceId, data };
  if (carriesChanges(row.type)) {
    body.previousAttributes =
      row.previous_attributes === null ? null : (JSON.parse(row.previous_attributes) as Attributes);
  }
  return body;
}

export interface FeedPage {
  items: EventBody[];
  /** Where the next read starts: after the last item, or after everything scanned when the end came. */
  position: Position;
  hasMore: boolean;
}

/** Rows scanned per request at most: a reader who sees little of a busy stream still gets an answer. */
const MAX_SCAN = 2000;

export async function readFeed(
  ctx: Context,
  q: { after: Position; types: readonly string[]; limit: number; entityId?: string },
  publicUrl: string,
): Promise<FeedPage> {
  const found: { row: EventRow; data: unknown }[] = [];
  let position = q.after;
  let scanned = 0;
  let atEnd = false;
  while (found.length <= q.limit && scanned < MAX_SCAN) {
    const batch = q.limit + 1;
    const rows = await readEvents(
      ctx.db,
      ctx.dialect,
      ctx.workspace.id,
      position,
      q.types,
      batch,
      q.entityId,
    );
    scanned += rows.length;
    const data = await renderEntities(ctx, rows, publicUrl);
    for (const row of rows) {
      const d = data.get(entityKey(row));
      position = { tx: row.tx, seq: row.seq };
      if (d === undefined) continue;
      found.push({ row, data: d });
      if (found.length > q.limit) break;
    }
    if (rows.length < batch) {
      atEnd = found.length <= q.limit;
      break;
    }
  }
  const hasMore = !atEnd;
  const items = found.slice(0, q.limit);
  const last = items[items.length - 1];
  if (found.length > q.limit && last) position = { tx: last.row.tx, seq: last.row.seq };
  return {
    items: items.map(({ row, data }) => eventBody(row, ctx.workspace.id, data)),
    position,
    hasMore,
  };
}
