import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import { tieredKey, tieredStart } from '../../db/keyset.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { flag, parsePresentation, sinceInstant } from '../../http/query.ts';
import { Empty, errors, IdParams, Page } from '../../http/schemas.ts';
import { presentDocuments } from './present.ts';
import { DOCUMENT_SEARCH } from './repository.ts';
import {
  DOCUMENT_EXPANSIONS,
  Document,
  DocumentReadQuery,
  DocumentSearchQuery,
  DocumentUpsertBody,
} from './schema.ts';
import * as service from './service.ts';

const tags = ['documents'];
const DocumentRef = Type.Ref('Document');

export default async function documentRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;
  app.addSchema(Document);

  app.post(
    '/v1/documents',
    {
      schema: {
        tags,
        operationId: 'upsertDocument',
        summary: 'Create a document, or update one when id is given',
        querystring: DocumentReadQuery,
        body: DocumentUpsertBody,
        response: { 200: DocumentRef, 201: DocumentRef, ...errors('not_found', 'deleted', 'conflict') },
      },
    },
    async (request, reply) => {
      const presentation = parsePresentation(request.query, DOCUMENT_EXPANSIONS);
      const { created, out } = await inTransaction(database, auth(request), async (ctx) => {
        const { row, created } = await service.upsertDocument(ctx, request.body);
        return { created, out: (await presentDocuments(ctx, [row], presentation))[0]! };
      });
      return reply.code(created ? 201 : 200).send(out);
    },
  );

  app.get(
    '/v1/documents/search',
    {
      schema: {
        tags,
        operationId: 'searchDocuments',
        summary: 'Search documents by name, description and team name',
        querystring: DocumentSearchQuery,
        response: { 200: Page(DocumentRef), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const query = request.query;
      const presentation = parsePresentation(query, DOCUMENT_EXPANSIONS);
      const ctx = readContext(database, auth(request));
      const search = {
        name: query.name,
        description: query.description,
        teamName: query.teamName,
        mode: query.matchMode ?? 'all',
        teamId: query.teamId,
        includeDeleted: flag(query.includeDeleted),
        updatedSince: sinceInstant(query.updatedSince),
      } as const;
      const key = tieredKey(DOCUMENT_SEARCH.order);
      const paging = openPaging(cursors, ctx, 'documents.search', search, query, key.arity);
      const { rows, total } = await service.searchDocuments(ctx, search, {
        limit: paging.limit,
        start: tieredStart(paging.after),
      });
      const page = paging.page(rows, key.keyOf);
      const data = await presentDocuments(
        ctx,
        page.data.map((hit) => hit.row),
        presentation,
      );
      return { ...page, data, total };
    },
  );

  app.get(
    '/v1/documents/:id',
    {
      schema: {
        tags,
        operationId: 'getDocument',
        summary: 'A document by UUID or publicId (a deleted one too, with deletedAt)',
        params: IdParams,
        querystring: DocumentReadQuery,
        response: { 200: DocumentRef, ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const row = await service.loadVisibleDocument(ctx, request.params.id);
      return (await presentDocuments(ctx, [row], parsePresentation(request.query, DOCUMENT_EXPANSIONS)))[0];
    },
  );

  app.delete(
    '/v1/documents/:id',
    {
      schema: {
        tags,
        operationId: 'deleteDocument',
        summary: 'Soft-delete a document (deleting it again changes nothing)',
        params: IdParams,
        response: { 204: Empty, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) => service.deleteDocument(ctx, request.params.id));
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/documents/:id/restore',
    {
      schema: {
        tags,
        operationId: 'restoreDocument',
        summary: 'Restore a soft-deleted document',
        params: IdParams,
        querystring: DocumentReadQuery,
        response: { 200: DocumentRef, ...errors('not_found', 'not_deleted') },
      },
    },
    async (request) => {
      const presentation = parsePresentation(request.query, DOCUMENT_EXPANSIONS);
      return inTransaction(
        database,
        auth(request),
        async (ctx) =>
          (
            await presentDocuments(ctx, [await service.restoreDocument(ctx, request.params.id)], presentation)
          )[0],
      );
    },
  );
}
