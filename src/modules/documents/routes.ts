import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { registerItemRoutes } from '../../http/item-routes.ts';
import { flag, parsePresentation, sinceInstant } from '../../http/query.ts';
import { errors, Page } from '../../http/schemas.ts';
import { presentDocuments } from './present.ts';
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
      const paging = openPaging(cursors, ctx, 'documents.search', search, query);
      const { total, ...page } = await service.searchDocuments(ctx, search, paging);
      const data = await presentDocuments(
        ctx,
        page.data.map((hit) => hit.row),
        presentation,
      );
      return { ...page, data, total };
    },
  );

  registerItemRoutes(app, {
    collection: 'documents',
    noun: 'Document',
    tags,
    readQuery: DocumentReadQuery,
    expansions: DOCUMENT_EXPANSIONS,
    load: service.loadVisibleDocument,
    delete: service.deleteDocument,
    restore: service.restoreDocument,
    present: presentDocuments,
  });
}
