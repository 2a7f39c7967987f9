import { Type } from 'typebox';
import { inTransaction } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { registerItemRoutes } from '../../http/item-routes.ts';
import { flag, parsePresentation, sinceInstant } from '../../http/query.ts';
import { errors } from '../../http/schemas.ts';
import { registerSearchRoute } from '../../http/search-route.ts';
import { presentDocuments } from './present.ts';
import {
  DOCUMENT_EXPANSIONS,
  Document,
  DocumentExpanded,
  DocumentReadQuery,
  DocumentSearchQuery,
  DocumentUpsertBody,
} from './schema.ts';
import * as service from './service.ts';

const tags = ['documents'];
const DocumentRef = Type.Ref('Document');

export default async function documentRoutes(app: App): Promise<void> {
  const { database } = app.cairn;
  app.addSchema(Document);
  app.addSchema(DocumentExpanded);

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

  registerSearchRoute(app, {
    collection: 'documents',
    noun: 'Document',
    tags,
    summary: 'Search documents by name, description and team name',
    querystring: DocumentSearchQuery,
    expansions: DOCUMENT_EXPANSIONS,
    filter: (query) =>
      ({
        name: query.name,
        description: query.description,
        teamName: query.teamName,
        mode: query.matchMode ?? 'all',
        teamId: query.teamId,
        includeDeleted: flag(query.includeDeleted),
        updatedSince: sinceInstant(query.updatedSince),
      }) as const,
    search: service.searchDocuments,
    present: presentDocuments,
  });

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
