import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
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
        operationId: 'listCollections',
        summary: "The workspace's collections, oldest first",
        querystring: CollectionListQuery,
        response: { 200: Page(Collection), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const paging = openPaging(cursors, ctx, 'collections.list', null, request.query);
      const page = await service.listCollections(ctx, paging);
      return { ...page, data: page.data.map(presentCollection) };
    },
  );

  app.post(
    '/v1/collections',
    {
      schema: {
        tags,
        operationId: 'upsertCollection',
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
