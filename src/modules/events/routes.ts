// GET /v1/events (docs/decisions.md §7): the pull side of webhooks.

import { type Context, readContext } from '../../context.ts';
import { readFeed } from '../../events/feed.ts';
import { isBefore, prunedThrough } from '../../events/prune.ts';
import { head, type Position, positionOf, START } from '../../events/stream.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import type { Cursors } from '../../http/cursor.ts';
import { AppError, invalidRequest } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { DEFAULT_LIMIT, errors } from '../../http/schemas.ts';
import { EVENT_VARIANTS, Event, EventFeedPage, EventFeedQuery, RESOURCE_SCHEMAS } from './schema.ts';

/**
 * A position this database made, or 400 invalid_cursor saying how to go on. Positions are signed with
 * the database's own cursor secret (http/cursor.ts), which stays behind when the data moves to
 * another database (transfer/tables.ts): there a position made by the old one cannot be read, and an
 * event id, which travels with the events, is how a consumer carries on.
 */
function decodePosition(cursors: Cursors, scope: string, given: string, param: 'cursor' | 'after') {
  try {
    return cursors.decode(scope, given, 2);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'invalid_cursor') throw error;
    throw new AppError(
      'invalid_cursor',
      'This position was not made by this database (another database or installation, or it was altered): ' +
        'continue with after=<the id of the last event you processed>, which every database reads',
      [{ path: `/query/${param}`, message: 'not a position of this database; use after=<last event id>' }],
    );
  }
}

/**
 * 400 cursor_expired when events after `after` were pruned (events/prune.ts): the reader would miss
 * them. A position at or after the last pruned event has missed nothing, however old it is.
 */
async function refuseExpired(
  ctx: Context,
  after: Position,
  param: 'cursor' | 'after',
  config: { webhookRetentionDays: number },
): Promise<void> {
  const through = await prunedThrough(ctx.db, ctx.workspace.id);
  if (!through || !isBefore(after, through)) return;
  throw new AppError(
    'cursor_expired',
    `Events after this position are no longer kept (they are kept ${config.webhookRetentionDays} days): ` +
      'read everything again (the searches, or the feed without a position), then carry on from after=latest ' +
      'taken before that read',
    [{ path: `/query/${param}`, message: 'older than the events kept; read everything again' }],
  );
}

export default async function eventRoutes(app: App): Promise<void> {
  const { database, cursors, config } = app.cairn;
  // The resources' schemas that events' data refers to (events/schema.ts DATA_SCHEMA), the event
  // types' schemas, and their union.
  for (const schema of [...RESOURCE_SCHEMAS, ...EVENT_VARIANTS, Event]) app.addSchema(schema);

  app.get(
    '/v1/events',
    {
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: 'Changes, oldest first, as webhook deliveries carry them (kept for the retention period)',
        querystring: EventFeedQuery,
        response: { 200: EventFeedPage, ...errors('invalid_cursor', 'cursor_expired') },
      },
    },
    async (request) => {
      const query = request.query;
      const ctx = readContext(database, auth(request));
      const types = [...new Set(query.type ?? [])].sort();
      // A position is a place in the workspace's stream, whoever reads it with whatever filter: an
      // integration may narrow or widen its types and carry on from where it was.
      const scope = JSON.stringify(['events', ctx.workspace.id]);
      if (query.after !== undefined && query.cursor !== undefined) {
        throw invalidRequest('/query/after', 'after cannot be combined with cursor');
      }
      if (query.after === 'latest') {
        // Where "now" is, without reading the history: an empty page whose cursor is the end.
        const end = await head(ctx.db, ctx.dialect, ctx.workspace.id);
        return { data: [], nextCursor: cursors.encode(scope, [end.tx, end.seq]), hasMore: false };
      }
      let after: Position = START;
      const given = query.cursor ?? query.after;
      if (given !== undefined) {
        const eventId = query.after !== undefined ? uuidRef(query.after) : undefined;
        if (eventId) {
          const found = await positionOf(ctx.db, ctx.workspace.id, eventId);
          if (!found) {
            throw invalidRequest(
              '/query/after',
              `no event with this id (events are kept ${config.webhookRetentionDays} days)`,
            );
          }
          after = found;
        } else {
          const [tx, seq] = decodePosition(
            cursors,
            scope,
            given,
            query.cursor !== undefined ? 'cursor' : 'after',
          );
          after = { tx: Number(tx), seq: Number(seq) };
        }
      }
      const page = await readFeed(
        ctx,
        {
          after,
          types,
          limit: query.limit ?? DEFAULT_LIMIT,
          ...(query.entityId ? { entityId: query.entityId } : {}),
        },
        config.publicUrl,
      );
      // Read after the page: a pruning that committed before the page was read is seen here.
      if (given !== undefined) {
        await refuseExpired(ctx, after, query.cursor !== undefined ? 'cursor' : 'after', config);
      }
      return {
        data: page.items,
        nextCursor: cursors.encode(scope, [page.position.tx, page.position.seq]),
        hasMore: page.hasMore,
      };
    },
  );
}
