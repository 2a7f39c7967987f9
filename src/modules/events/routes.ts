// GET /v1/events (docs/decisions.md §7): the pull side of webhooks.

import { readContext } from '../../context.ts';
import { readFeed } from '../../events/feed.ts';
import { type Position, positionOf, START } from '../../events/stream.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { invalidRequest } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { DEFAULT_LIMIT, errors } from '../../http/schemas.ts';
import { Event, EventFeedPage, EventFeedQuery } from './schema.ts';

export default async function eventRoutes(app: App): Promise<void> {
  const { database, cursors, config } = app.cairn;
  app.addSchema(Event);

  app.get(
    '/v1/events',
    {
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: 'Changes, oldest first, as webhook deliveries carry them (kept for the retention period)',
        querystring: EventFeedQuery,
        response: { 200: EventFeedPage, ...errors('invalid_cursor') },
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
          const [tx, seq] = cursors.decode(scope, given, 2);
          after = { tx: Number(tx), seq: Number(seq) };
        }
      }
      const page = await readFeed(
        ctx,
        { after, types, limit: query.limit ?? DEFAULT_LIMIT },
        config.publicUrl,
      );
      return {
        data: page.items,
        nextCursor: cursors.encode(scope, [page.position.tx, page.position.seq]),
        hasMore: page.hasMore,
      };
    },
  );
}
