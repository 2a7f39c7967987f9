import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { Empty, errors, IdParams, Page } from '../../http/schemas.ts';
import { ApiToken, ApiTokenCreateBody, ApiTokenCreated, ApiTokenListQuery } from './schema.ts';
import * as service from './service.ts';

const tags = ['users'];

export default async function apiTokenRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;

  app.get(
    '/v1/api-tokens',
    {
      schema: {
        tags,
        operationId: 'listApiTokens',
        summary: "The caller's own tokens (not revoked), oldest first; never the secret",
        querystring: ApiTokenListQuery,
        response: { 200: Page(ApiToken), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const paging = openPaging(cursors, ctx, 'api-tokens.list', null, request.query);
      const page = await service.listOwnTokens(ctx, paging);
      return {
        ...page,
        data: page.data.map((t) => ({
          id: t.id,
          name: t.name,
          createdAt: t.created_at,
          lastUsedAt: t.last_used_at,
        })),
      };
    },
  );

  app.post(
    '/v1/api-tokens',
    {
      config: { secretInAnswer: true },
      schema: {
        tags,
        operationId: 'createApiToken',
        summary: 'Create an API token (returned once)',
        body: ApiTokenCreateBody,
        response: { 201: ApiTokenCreated, ...errors('forbidden') },
      },
    },
    async (request, reply) => {
      const { row, token } = await inTransaction(database, auth(request), (ctx) =>
        service.issueToken(ctx, request.body),
      );
      return reply
        .code(201)
        .send({ id: row.id, name: row.name, userId: row.user_id, token, createdAt: row.created_at });
    },
  );

  app.delete(
    '/v1/api-tokens/:id',
    {
      schema: {
        tags,
        operationId: 'deleteApiToken',
        summary: 'Revoke an API token',
        params: IdParams,
        response: { 204: Empty, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) => service.revokeToken(ctx, request.params.id));
      return reply.code(204).send();
    },
  );
}
