// Liveness and readiness (decisions §8): no token; /readyz asks the database.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../../app.ts';

const Status = Type.Object({ status: Type.String() });

export default async function healthRoutes(app: App): Promise<void> {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operation'],
        operationId: 'getHealth',
        summary: 'The process is up',
        security: [],
        response: { 200: Status },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operation'],
        operationId: 'getReadiness',
        summary: 'The database answers',
        security: [],
        response: { 200: Status, 503: Status },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.cairn.database.db);
        return { status: 'ok' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );
}
