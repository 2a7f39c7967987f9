// The one shape of Cairn's log lines (docs/deployment.md "Logs"), for the server, the cluster primary
// and the CLI's long-running commands: pino JSON with the level as its name ("level":"info", which every
// log shipper reads without a mapping table), secrets redacted, and one line per request (requestLine).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    formatters: { level: (label) => ({ level: label }) },
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  };
}

/**
 * The request's one line, written when the answer is sent (Fastify's own request logging, two lines at
 * info, is off): the route template rather than the raw URL's values where the route is known, so
 * lines group by endpoint; the raw URL still travels in `url` for a person reading one request.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  // request.log already binds reqId; a failure's error is logged by http/error-handler.ts.
  request.log.info(
    {
      method: request.method,
      route: request.routeOptions.url ?? null,
      url: withoutLinkToken(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    },
    'request',
  );
}

/** The web app's one-time link pages carry their token in the path (`/invite/<token>`): never logged. */
const LINK_PAGE = /^(\/(?:invite|reset-password)\/)[^/?#]+/;

function withoutLinkToken(url: string): string {
  return url.replace(LINK_PAGE, '$1****');
}
