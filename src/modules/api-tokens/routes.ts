import { inTransaction } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { Empty, errors, IdParams } from '../../http/schemas.ts';
import { ApiTokenCreateBody, ApiTokenCreated } from './schema.ts';
import * as service from './service.ts';

const tags = ['users'];

export default async function apiTokenRoutes(app: App): Promise<void> {
  const { database } = app.cairn;

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
