// Liveness and readiness (docs/decisions.md §8): no token; /readyz asks the database.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App } from '../../http/app-type.ts';
import { RETRY_AFTER_SECONDS } from '../../http/error-handler.ts';

const Status = Type.Object({ status: Type.String() });

/** A load balancer's check should answer well within its own timeout (commonly 5 s). */
const READY_TIMEOUT_MS = 2000;

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
      // Bounded: a database that accepts connections but does not answer fails the check too.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)),
          READY_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([sql`select 1`.execute(app.cairn.database.db), late]);
        return { status: 'ok' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({ status: 'unavailable' });
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
