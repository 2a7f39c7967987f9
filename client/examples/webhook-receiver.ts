// A webhook receiver that verifies every delivery before acting on it (node:http; any framework works
// the same way, as long as it hands over the raw body).
// Run: CAIRN_WEBHOOK_SECRET=whsec_... node examples/webhook-receiver.ts   (listens on :3000)
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type CairnEvent, verifyWebhook, WebhookError } from '../src/webhooks.ts';

export function webhookReceiver(secret: string, onEvent: (event: CairnEvent) => void): Server {
  // Ids already handled. In memory here; a table (with a unique key) when there are several processes.
  const seen = new Set<string>();
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const event = await verifyWebhook(secret, req.headers, Buffer.concat(chunks).toString('utf8'), {
          seen,
        });
        onEvent(event);
        res.writeHead(204).end();
      } catch (error) {
        if (!(error instanceof WebhookError)) throw error;
        // A replay was handled already: say so, or Cairn delivers it again. Anything else is refused.
        res.writeHead(error.reason === 'replayed' ? 200 : 400).end(error.reason);
      }
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  webhookReceiver(process.env.CAIRN_WEBHOOK_SECRET ?? '', (e) => console.log(e.type, e.id)).listen(3000);
}
