// The request side of the metrics, and where they are served (docs/operations.md "Scraping"): on a
// listener of their own (CAIRN_METRICS_PORT), or on the main port at /metrics behind a bearer token
// (CAIRN_METRICS_TOKEN). Neither is on unless configured: metrics name routes, volumes and errors, which
// are nobody's business outside the operator's network.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { idempotentReplays, register, requestArrived, requestDuration, requestLeft } from './metrics.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request arrived (http/lifecycle.ts): in flight until its response closes. */
export function requestStarted(reply: FastifyReply): void {
  requestArrived();
  // 'close' comes once per response, answered or cut off, where 'finish' misses an aborted one. A
  // response is never reused, so `on` serves, without the wrapper `once` allocates.
  reply.raw.on('close', requestLeft);
}

/** Its answer was sent (http/lifecycle.ts): one observation of the duration, by route template. */
export function requestFinished(request: FastifyRequest, reply: FastifyReply): void {
  requestDuration(
    // A path no route has is one series, not one per path tried.
    request.routeOptions.url ?? 'unmatched',
    METHODS.has(request.method) ? request.method : 'other',
    reply.statusCode,
  ).observe(reply.elapsedTime / 1000);
  if (reply.getHeader('idempotent-replayed') === 'true') idempotentReplays.inc();
}

/** On the main port, /metrics when a token is configured (the counting is http/lifecycle.ts's). */
export function registerMetricsRoute(app: FastifyInstance, config: Config): void {
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
