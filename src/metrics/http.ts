// The request side of the metrics, and where they are served (docs/operations.md "Scraping"): on a
// listener of their own (CAIRN_METRICS_PORT), or on the main port at /metrics behind a bearer token
// (CAIRN_METRICS_TOKEN). Neither is on unless configured: metrics name routes, volumes and errors, which
// are nobody's business outside the operator's network.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { idempotentReplays, register, requestArrived, requestDuration, requestLeft } from './metrics.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Counts every request by route template; on the main port, /metrics when a token is configured. */
export function registerMetrics(app: FastifyInstance, config: Config): void {
  // Callback hooks, not async ones: no promise per request for work that never waits.
  app.addHook('onRequest', (_request, reply, done) => {
    requestArrived();
    // 'close' comes once per response, answered or cut off, where onResponse misses an aborted one. A
    // response is never reused, so `on` serves, without the wrapper `once` allocates.
    reply.raw.on('close', requestLeft);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    requestDuration(
      // A path no route has is one series, not one per path tried.
      request.routeOptions.url ?? 'unmatched',
      METHODS.has(request.method) ? request.method : 'other',
      reply.statusCode,
    ).observe(reply.elapsedTime / 1000);
    if (reply.getHeader('idempotent-replayed') === 'true') idempotentReplays.inc();
    done();
  });
  const token = config.metricsToken;
  if (!token) return;
  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="cairn-metrics"').send();
    }
    return reply.type(register.contentType).send(await register.metrics());
  });
}

/** The metrics listener of CAIRN_METRICS_PORT: GET /metrics from `read`, nothing else. */
export function serveMetrics(host: string, port: number, read: () => Promise<string>): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    read().then(
      (text) => res.writeHead(200, { 'content-type': register.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
