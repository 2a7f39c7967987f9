// Bearer-token authentication (decisions §2), the first step of every /v1 request: it runs before the
// body is parsed or validated, so an unauthenticated caller learns nothing about the route's rules.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../context.ts';
import type { Database } from '../db/index.ts';
import { authenticate } from '../modules/api-tokens/service.ts';
import { AppError } from './errors.ts';

function unauthenticated(detail: string, error?: string): AppError {
  const challenge = error ? `Bearer realm="cairn", error="${error}"` : 'Bearer realm="cairn"';
  return new AppError('unauthenticated', detail, undefined, { 'www-authenticate': challenge });
}

export function registerAuth(app: FastifyInstance, database: Database): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || !request.routeOptions.url?.startsWith('/v1/')) return;
    const header = request.headers.authorization;
    if (!header) throw unauthenticated('Send an API token as Authorization: Bearer <token>');
    const token = /^Bearer +([\x21-\x7e]{1,512}) *$/i.exec(header)?.[1];
    if (!token) throw unauthenticated('The Authorization header must be Bearer <token>', 'invalid_request');
    const auth = await authenticate(database.db, token);
    if (!auth) throw unauthenticated('The API token is not valid', 'invalid_token');
    request.auth = auth;
  });
}

/** The request's authentication; routes behind the hook always have one. */
export function auth(request: FastifyRequest): Auth {
  if (!request.auth) throw new AppError('unauthenticated', 'Not authenticated');
  return request.auth;
}
