// Accepting an invitation and the password links (docs/api.md "Invitations and password links"). Three
// routes take no credentials (`config: { public: true }`, honoured by http/auth.ts): the link's token is
// the proof, and the address budget of the rate limit applies. The owner's link for a person is an
// ordinary authenticated route.
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { inTransaction } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { Empty, errors, IdParams } from '../../http/schemas.ts';
import { presentUser } from '../users/present.ts';
import {
  AcceptInvitationBody,
  PasswordLinkCreated,
  PasswordResetRequestBody,
  PasswordResetRequested,
  ResetPasswordBody,
  SignedIn,
} from './recovery-schema.ts';
import * as service from './recovery-service.ts';
import { SESSION_COOKIE, sessionCookie } from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes no credentials (http/auth.ts): request.auth stays null. */
    public?: boolean;
  }
}

const tags = ['auth'];

/** The error answers of a route without credentials: no 401. */
function publicErrors(): Record<number, TSchema> {
  const { 401: _, ...rest } = errors('invalid_token');
  return rest;
}

// Self-service reset requests, in an hour: per email (whoever asks: a stranger cannot flood someone's
// mailbox) and per address (one client cannot walk through many emails).
const HOUR_MS = 60 * 60 * 1000;
const RESETS_PER_EMAIL = 5;
const RESETS_PER_ADDRESS = 20;

const PUBLIC = { public: true, ifMatch: false } as const;

export default async function recoveryRoutes(app: App): Promise<void> {
  const { mailer } = app;
  const { database, config } = app.cairn;
  const out = { publicUrl: config.publicUrl, mailer };
  const limits = [
    {
      check: app.createRateLimit({
        max: RESETS_PER_ADDRESS,
        timeWindow: HOUR_MS,
        keyGenerator: (request) => `password-reset:address:${request.ip}`,
      }),
      what: 'from this address',
    },
    {
      check: app.createRateLimit({
        max: RESETS_PER_EMAIL,
        timeWindow: HOUR_MS,
        keyGenerator: (request) =>
          `password-reset:email:${(request.body as { email: string }).email.trim().toLowerCase()}`,
      }),
      what: 'for this email',
    },
  ];
  const limitResets = async (request: FastifyRequest) => {
    for (const { check, what } of limits) {
      const counted = await check(request);
      if (!counted.isAllowed && counted.isExceeded) {
        throw new AppError(
          'rate_limited',
          `Too many password reset requests ${what} in an hour; retry in ${counted.ttlInSeconds} seconds`,
          undefined,
          { 'retry-after': String(counted.ttlInSeconds) },
        );
      }
    }
  };

  app.post(
    '/v1/auth/accept-invitation',
    {
      config: PUBLIC,
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation: become a user of its workspace with its role, and be signed in',
        security: [],
        body: AcceptInvitationBody,
        response: { 200: SignedIn, ...publicErrors() },
      },
    },
    async (request, reply) => {
      const accepted = await service.acceptInvitation(database, {
        ...request.body,
        userAgent: request.headers['user-agent'],
        address: request.ip,
      });
      reply.setCookie(
        SESSION_COOKIE,
        accepted.session.secret,
        sessionCookie(config.publicUrl, accepted.session.expiresAt),
      );
      return { user: presentUser(accepted.user), workspace: accepted.workspace };
    },
  );

  app.post(
    '/v1/auth/password-reset',
    {
      config: PUBLIC,
      preHandler: limitResets,
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary:
          'Ask for a password link by email: 202 whether or not the email belongs to anyone; mailed when SMTP is set',
        security: [],
        body: PasswordResetRequestBody,
        response: { 202: PasswordResetRequested, ...publicErrors() },
      },
    },
    async (request, reply) => {
      service.requestReset(database, out, request.log, request.body);
      return reply.code(202).send({
        message:
          'If this email belongs to someone here, a link to set a new password is on its way; it works for an hour',
      });
    },
  );

  app.post(
    '/v1/auth/reset-password',
    {
      config: PUBLIC,
      schema: {
        tags,
        operationId: 'resetPassword',
        summary: 'Set a password through a one-time link; signs the person out everywhere',
        security: [],
        body: ResetPasswordBody,
        response: { 204: Empty, ...publicErrors() },
      },
    },
    async (request, reply) => {
      await service.resetPassword(database, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/users/:id/password-reset',
    {
      // The link is shown once: an Idempotency-Key's retry is refused rather than answered with it again.
      config: { secretInAnswer: true },
      schema: {
        tags: ['users'],
        operationId: 'createPasswordLink',
        summary: 'Make a one-time password link for a person (owners); mailed to them too when SMTP is set',
        params: IdParams,
        response: { 201: PasswordLinkCreated, ...errors('forbidden', 'not_found') },
      },
    },
    async (request, reply) => {
      const link = await inTransaction(database, auth(request), (ctx) =>
        service.issueResetLinkFor(ctx, request.params.id, out),
      );
      return reply.code(201).send({ ...link, emailed: mailer.enabled });
    },
  );
}
