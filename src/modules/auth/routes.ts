// Sign-in, sign-out, the caller's sessions and password (docs/api.md "Sessions"). Sign-in and
// sign-out are public (http/auth.ts `config.public`); the others take a token or the cookie.
import type { Redis } from 'ioredis';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { Empty, errors, IdParams } from '../../http/schemas.ts';
import { createLockout } from './lockout.ts';
import { PasswordChangeBody, SessionList, SignedIn, SignInBody } from './schema.ts';
import * as service from './service.ts';
import { SESSION_COOKIE, sessionCookie } from './sessions.ts';

const tags = ['sessions'];
/** An operation that needs no credentials, in the document. */
const open = { security: [] };

export interface AuthRouteOptions {
  /** The rate limits' Redis (http/rate-limit.ts), shared by the sign-in lockout; none without REDIS_URL. */
  redis: Redis | undefined;
}

export default async function authRoutes(app: App, options: AuthRouteOptions): Promise<void> {
  const { database, config } = app.cairn;
  const lockout = createLockout(
    {
      accountFailures: config.signInAccountFailures,
      addressFailures: config.signInAddressFailures,
      lockoutSeconds: config.signInLockoutSeconds,
    },
    options.redis,
  );
  const services = (log: service.AuthServices['log']) => ({ database, lockout, log });
  const clear = sessionCookie(config.publicUrl, 'clear');

  // Sessions and passwords have no version to compare: If-Match is refused, as the batch refuses it,
  // rather than ignored (the writes say `ifMatch: false`, so the document does not offer it).
  app.addHook('preHandler', async (request) => {
    if (request.headers['if-match'] !== undefined) {
      throw new AppError(
        'validation_failed',
        'If-Match does not apply here: sessions and passwords have no version',
        [{ path: '/headers/if-match', message: 'does not apply to this operation' }],
      );
    }
  });

  app.post(
    '/v1/auth/sign-in',
    {
      config: { public: true, secretInAnswer: true, ifMatch: false },
      schema: {
        tags,
        ...open,
        operationId: 'signIn',
        summary: 'Sign in with an email and a password: starts a session (the cairn_session cookie)',
        body: SignInBody,
        response: { 200: SignedIn, ...errors('invalid_credentials', 'forbidden') },
      },
    },
    async (request, reply) => {
      const { answer, session } = await service.signIn(services(request.log), request.body, {
        userAgent: request.headers['user-agent'],
        address: request.ip,
        previousSecret: request.cookies[SESSION_COOKIE],
      });
      reply.setCookie(SESSION_COOKIE, session.secret, sessionCookie(config.publicUrl, session.expiresAt));
      return answer;
    },
  );

  app.post(
    '/v1/auth/sign-out',
    {
      config: { public: true, ifMatch: false },
      schema: {
        tags,
        ...open,
        operationId: 'signOut',
        summary: "End this browser's session (if it has one) and clear its cookie",
        response: { 204: Empty, ...errors('forbidden') },
      },
    },
    async (request, reply) => {
      await service.signOut(database, request.cookies[SESSION_COOKIE]);
      return reply.setCookie(SESSION_COOKIE, '', clear).code(204).send();
    },
  );

  app.get(
    '/v1/auth/sessions',
    {
      schema: {
        tags,
        operationId: 'listSessions',
        summary: "The caller's live sessions, newest first",
        response: { 200: SessionList, ...errors() },
      },
    },
    async (request) => ({ data: await service.listSessions(database, auth(request)) }),
  );

  app.delete(
    '/v1/auth/sessions/:id',
    {
      config: { ifMatch: false },
      schema: {
        tags,
        operationId: 'deleteSession',
        summary: "End one of the caller's sessions (this one too: its cookie is cleared)",
        params: IdParams,
        response: { 204: Empty, ...errors('not_found', 'forbidden') },
      },
    },
    async (request, reply) => {
      const caller = auth(request);
      await service.endSession(database, caller, request.params.id);
      if (caller.session?.id === request.params.id.toLowerCase()) reply.setCookie(SESSION_COOKIE, '', clear);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/auth/password',
    {
      config: { ifMatch: false },
      schema: {
        tags,
        operationId: 'changePassword',
        summary: "Change the caller's password; every other session of the caller ends",
        body: PasswordChangeBody,
        response: { 204: Empty, ...errors('forbidden', 'conflict') },
      },
    },
    async (request, reply) => {
      await service.changePassword(services(request.log), auth(request), request.body, request.ip);
      return reply.code(204).send();
    },
  );
}
