import type { App } from '../../app.ts';
import { inTransaction, readContext } from '../../context.ts';
import { auth } from '../../http/auth.ts';
import { checkPageInput, toPage } from '../../http/cursor.ts';
import { errors, Page } from '../../http/schemas.ts';
import { presentCollection } from './present.ts';
import { Collection, CollectionListQuery, CollectionUpsertBody } from './schema.ts';
import * as service from './service.ts';

const tags = ['projects'];

export default async function collectionRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;

  app.get(
    '/v1/collections',
    {
      schema: {
        tags,
        summary: 'The workspace’s collections, oldest first',
        querystring: CollectionListQuery,
        response: { 200: Page(Collection), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const q = request.query;
      const limit = q.limit ?? 50;
      checkPageInput({ limit, cursor: q.cursor, offset: q.offset });
      const ctx = readContext(database, auth(request));
      const scope = `collections|${ctx.workspace.id}`;
      const rows = await service.listCollections(ctx, {
        limit,
        offset: q.offset,
        after: q.cursor ? cursors.decode(scope, q.cursor, 2) : undefined,
      });
      const page = toPage(rows, limit, cursors, scope, (r) => [r.created_at, r.id]);
      return { ...page, data: page.data.map(presentCollection) };
    },
  );

  app.post(
    '/v1/collections',
    {
      schema: {
        tags,
        summary: 'Create a collection, or rename one when id is given',
        body: CollectionUpsertBody,
        response: { 200: Collection, 201: Collection, ...errors('not_found', 'forbidden') },
      },
    },
    async (request, reply) => {
      const { row, created } = await inTransaction(database, auth(request), (ctx) =>
        service.upsertCollection(ctx, request.body),
      );
      return reply.code(created ? 201 : 200).send(presentCollection(row));
    },
  );
}
