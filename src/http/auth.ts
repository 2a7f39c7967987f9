// Authentication (docs/decisions.md §2, §9), the first step of every /v1 request: it runs before the
// body is parsed or validated, so an unauthenticated caller learns nothing about the route's rules.
//
// A request carries an API token (`Authorization: Bearer`) or the session cookie a sign-in set
// (`cairn_session`, modules/auth/sessions.ts); both give the same Auth, so every route and rule works
// the same with either. When both are sent the bearer header wins, and the cookie is not looked at.
// The bearer path is the hot one and is as it was: one lookup, no statement added for sessions.
//
// A cookie is sent by the browser on its own, so a cookie-authenticated request that changes
// something (any method but GET, HEAD and OPTIONS) must come from Cairn's own origin: its `Origin`
// header must be CAIRN_PUBLIC_URL's origin, or, without Origin, its `Sec-Fetch-Site` (when sent) must
// be `same-origin`; otherwise 403 forbidden. A request with neither header does not come from a
// browser page. JSON-only bodies already keep a plain HTML form from posting anything.
//
// Routes marked `config: { public: true }` (sign-in, sign-out) need no authentication; their writes
// are held to the same origin rule, so a page elsewhere cannot sign a browser in or out.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from '../context.ts';
import type { Database } from '../db/index.ts';
import { authenticate, hashToken } from '../modules/api-tokens/service.ts';
import { authenticateSession, hashSecret, SESSION_COOKIE, sessionCookie } from '../modules/auth/sessions.ts';
import { expectedFrom } from '../preconditions.ts';
import { AppError } from './errors.ts';
import { entityTags } from './etag.ts';
import { lookUpBeside } from './prefetch.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no authentication (request.auth stays null): sign-in and the like. */
    public?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function unauthenticated(detail: string, error?: string): AppError {
  const challenge = error ? `Bearer realm="cairn", error="${error}"` : 'Bearer realm="cairn"';
  return new AppError('unauthenticated', detail, undefined, { 'www-authenticate': challenge });
}

/** 403 for a write that a browser sent from a page of another origin; undefined when it may go on. */
function foreignOrigin(request: FastifyRequest, ownOrigin: string): AppError | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const foreign =
    origin !== undefined ? origin.toLowerCase() !== ownOrigin : site !== undefined && site !== 'same-origin';
  if (!foreign) return undefined;
  return new AppError(
    'forbidden',
    `A change made with the session cookie must come from Cairn's own pages (origin ${ownOrigin}, CAIRN_PUBLIC_URL); this request came from another origin. Programs send an API token instead`,
  );
}

async function check(
  database: Database,
  request: FastifyRequest,
  ownOrigin: string,
): Promise<Auth | AppError> {
  const header = request.headers.authorization;
  if (header) {
    const token = /^Bearer +([\x21-\x7e]{1,512}) *$/i.exec(header)?.[1];
    if (!token) return unauthenticated('The Authorization header must be Bearer <token>', 'invalid_request');
    const hash = hashToken(token);
    return (
      (await lookUpBeside(database, request, hash, () =>
        authenticate(database.db, database.dialect, hash),
      )) ?? unauthenticated('The API token is not valid', 'invalid_token')
    );
  }
  const secret = request.cookies[SESSION_COOKIE];
  if (!secret) {
    return unauthenticated(
      'Send an API token as Authorization: Bearer <token>, or sign in (POST /v1/auth/sign-in) and send its cookie',
    );
  }
  // Before the lookup: a page elsewhere neither learns whether the cookie is good nor renews it.
  const refused = foreignOrigin(request, ownOrigin);
  if (refused) return refused;
  const hash = hashSecret(secret);
  return (
    (await lookUpBeside(database, request, hash, () =>
      authenticateSession(database.db, database.dialect, hash),
    )) ?? unauthenticated('The session has ended (signed out, expired or revoked); sign in again')
  );
}

/**
 * Looks at the credentials first (onRequest), then lets the rate limit count the request (by token or
 * user, or by address when there is no valid credential; http/rate-limit.ts), and only then answers a
 * failure (preParsing, still before the body is read).
 */
export function registerAuth(app: FastifyInstance, database: Database, publicUrl: string): void {
  const ownOrigin = new URL(publicUrl).origin;
  app.decorateRequest('auth', null);
  const failures = new WeakMap<FastifyRequest, AppError>();
  app.addHook('onRequest', async (request) => {
    if (request.is404 || !request.routeOptions.url?.startsWith('/v1/')) return;
    // A route marked `config: { public: true }` takes no credentials (sign-in and sign-out, accepting an
    // invitation, the password links): request.auth stays null, so it is rate-limited by address; a
    // browser's write to it is still held to the origin rule.
    if (request.routeOptions.config.public) {
      const refused = foreignOrigin(request, ownOrigin);
      if (refused) failures.set(request, refused);
      return;
    }
    const result = await check(database, request, ownOrigin);
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
  // A session renewed by this request (at most once a day) gets its cookie again with the new expiry,
  // on a success (2xx) that does not set the cookie itself (ending the session clears it).
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const renewed = request.auth?.session?.renewedUntil;
    if (!renewed) return payload;
    const secret = request.cookies[SESSION_COOKIE];
    if (secret && reply.statusCode < 300 && reply.getHeader('set-cookie') === undefined) {
      reply.setCookie(SESSION_COOKIE, secret, sessionCookie(publicUrl, renewed));
    }
    return payload;
  });
}

/** The request's authentication; routes behind the hook always have one. */
export function auth(request: FastifyRequest): Auth {
  if (!request.auth) throw new AppError('unauthenticated', 'Not authenticated');
  return request.auth;
}
