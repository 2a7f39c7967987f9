// Rich text in request bodies (descriptions, post content) is converted before the route's handler
// runs, in the render pool (text/render-pool.ts), so that no conversion runs on the event loop or
// inside a transaction. A route gets this by using a schema marked `x-rich-text` (http/common.ts
// DescriptionInput, RichTextString); a batch converts its entries itself (tasks/batch.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { prepareRichText, richTextFields } from '../text/render-pool.ts';
import { hooksOf } from './idempotency.ts';

export function registerRichText(app: FastifyInstance): void {
  // Only on routes whose body has rich text; after validation (the shapes are known good) and after
  // an idempotent replay has been answered (idempotency.ts adds its hook first).
  app.addHook('onRoute', (route) => {
    const fields = richTextFields(route.schema?.body);
    if (fields.length === 0) return;
    const convert = async (request: FastifyRequest) => {
      if (typeof request.body === 'object' && request.body !== null)
        await prepareRichText(request.body as Record<string, unknown>, fields);
    };
    route.preHandler = [...hooksOf(route.preHandler), convert];
  });
}
