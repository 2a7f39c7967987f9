// The web app (web/, docs/architecture.md "The web app"): Vite builds it into web/dist at install time,
// and this file serves it from the same process as the API.
//
// - /assets/*: the build's files, named by their content's hash, so cached for a year as immutable;
//   a brotli or gzip copy made at build time is sent when the browser takes it.
// - index.html for every other GET that is not the API's (/v1, /docs, /openapi.json, /healthz, /readyz,
//   /metrics) nor looks like a file: the app's own router reads the path. It is sent with `no-cache` (a new build
//   is picked up at once) and the app's Content-Security-Policy (no inline script, nothing from
//   elsewhere).
//
// The app's paths are answered from Fastify's not-found path (an onRequest hook on requests no route
// matched) rather than by a catch-all route, so that the router and the 404/405 answers of the API
// (error-handler.ts) stay exactly what they were: an unknown /v1 path is still a problem+json 404, and
// a POST to an app path is a 404, not a 405 pointing at GET.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** What the app's pages may load: only this origin's own scripts, styles and API. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that belong to the API, its documentation or its operation, never to the app. */
const RESERVED = /^\/(?:v1|docs|openapi\.json|healthz|readyz|metrics|assets)(?:\/|$)/;
/** A last path segment with an extension (`/robots.txt`) asks for a file the build does not have. */
const FILE_LIKE = /\/[^/]*\.[A-Za-z0-9]+$/;

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Cairn</title>
<p>The web app has not been built. <code>npm install</code> builds it; so does <code>npm run build -w web</code>.
The API is at <a href="/docs">/docs</a>.</p></html>`;

function readIndex(root: string): string | undefined {
  try {
    return readFileSync(join(root, 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
}

export function isAppPath(path: string): boolean {
  return !RESERVED.test(path) && !FILE_LIKE.test(path);
}

export async function registerWebApp(app: FastifyInstance, root = WEB_ROOT): Promise<void> {
  // Read once: a new build is served after a restart, as a new server version would be.
  const index = readIndex(root);
  if (index === undefined) app.log.warn({ root }, 'the web app is not built: its pages answer 503');

  await app.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    dotfiles: 'ignore',
    preCompressed: true,
    maxAge: '365d',
    immutable: true,
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const path = request.url.split('?')[0] ?? '/';
    if (!isAppPath(path)) return;
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', APP_CSP)
      .header('x-content-type-options', 'nosniff')
      // Invitation and password links carry their token in the path: never pass it on as a Referer.
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .code(index === undefined ? 503 : 200);
    return reply.send(index ?? NOT_BUILT);
  });
}
