// Rich text in request bodies (descriptions, post content) is converted before the route's handler
// runs, in the render pool (text/render-pool.ts), so that no conversion runs on the event loop or
// inside a transaction. A route gets this by using a schema marked `x-rich-text` (http/common.ts
// DescriptionInput, RichTextString); a batch converts its entries itself (tasks/batch.ts).
import type { FastifyInstance } from 'fastify';
import { prepareRichText, richTextFields } from '../text/render-pool.ts';

export function registerRichText(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const fields = richTextFields(route.schema?.body);
    if (fields.length > 0) route.config = { ...(route.config as object), richText: fields } as never;
  });
  // After validation (the shapes are known good) and after an idempotent replay has been answered.
  app.addHook('preHandler', async (request) => {
    const fields = (request.routeOptions.config as { richText?: string[] }).richText;
    if (fields && typeof request.body === 'object' && request.body !== null)
      await prepareRichText(request.body as Record<string, unknown>, fields);
  });
}
