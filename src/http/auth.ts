// Bearer-token authentication (docs/decisions.md §2), the first step of every /v1 request: it runs before the
// body is parsed or validated, so an unauthenticated caller learns nothing about the route's rules.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../context.ts';
import type { Database } from '../db/index.ts';
import { authenticate } from '../modules/api-tokens/service.ts';
import { expectedFrom } from '../preconditions.ts';
import { AppError } from './errors.ts';
import { entityTags } from './etag.ts';

function unauthenticated(detail: string, error?: string): AppError {
  const challenge = error ? `Bearer realm="cairn", error="${error}"` : 'Bearer realm="cairn"';
  return new AppError('unauthenticated', detail, undefined, { 'www-authenticate': challenge });
}

async function check(database: Database, request: FastifyRequest): Promise<Auth | AppError> {
  const header = request.headers.authorization;
  if (!header) return unauthenticated('Send an API token as Authorization: Bearer <token>');
  const token = /^Bearer +([\x21-\x7e]{1,512}) *$/i.exec(header)?.[1];
  if (!token) return unauthenticated('The Authorization header must be Bearer <token>', 'invalid_request');
  return (
    (await authenticate(database.db, database.dialect, token)) ??
    unauthenticated('The API token is not valid', 'invalid_token')
  );
}

/**
 * Looks at the token first (onRequest), then lets the rate limit count the request (by token, or by
 * address when there is no valid one; http/rate-limit.ts), and only then answers a failure (preParsing,
 * still before the body is read).
 */
export function registerAuth(app: FastifyInstance, database: Database): void {
  app.decorateRequest('auth', null);
  const failures = new WeakMap<FastifyRequest, AppError>();
  app.addHook('onRequest', async (request) => {
    // A route marked `config: { public: true }` takes no credentials (accepting an invitation, the
    // password links: modules/auth/recovery-routes.ts): request.auth stays null, so it is rate-limited
    // by address.
    if (request.routeOptions.config.public) return;
    if (request.is404 || !request.routeOptions.url?.startsWith('/v1/')) return;
    const result = await check(database, request);
    if (result instanceof AppError) failures.set(request, result);
    else {
      // A write's If-Match travels with its standing, for the service to check on the locked row.
      const expected =
        request.method === 'GET' ? undefined : expectedFrom(entityTags(request.headers['if-match']));
      request.auth = expected === undefined ? result : { ...result, expected };
    }
  });
  app.addHook('preParsing', async (request) => {
    const failure = failures.get(request);
    if (failure) throw failure;
  });
}

/** The request's authentication; routes behind the hook always have one. */
export function auth(request: FastifyRequest): Auth {
  if (!request.auth) throw new AppError('unauthenticated', 'Not authenticated');
  return request.auth;
}
