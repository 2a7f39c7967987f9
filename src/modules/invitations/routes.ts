import { inTransaction, now, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { Empty, errors, IdParams, Page } from '../../http/schemas.ts';
import { presentInvitation } from './present.ts';
import { Invitation, InvitationCreateBody, InvitationCreated, InvitationListQuery } from './schema.ts';
import * as service from './service.ts';

const tags = ['users'];

export default async function invitationRoutes(app: App): Promise<void> {
  const { mailer } = app;
  const { database, cursors, config } = app.cairn;
  const out = { publicUrl: config.publicUrl, mailer };

  app.post(
    '/v1/invitations',
    {
      // The link is shown once: an Idempotency-Key's retry is refused rather than answered with it again.
      config: { secretInAnswer: true },
      schema: {
        tags,
        operationId: 'createInvitation',
        summary:
          'Invite someone by email with a role (owners); the answer holds the one-time link, mailed too when SMTP is set',
        body: InvitationCreateBody,
        response: { 201: InvitationCreated, ...errors('forbidden', 'conflict') },
      },
    },
    async (request, reply) => {
      const { row, url } = await inTransaction(database, auth(request), (ctx) =>
        service.createInvitation(ctx, request.body, out),
      );
      return reply.code(201).send({ ...presentInvitation(row, now()), url, emailed: mailer.enabled });
    },
  );

  app.get(
    '/v1/invitations',
    {
      schema: {
        tags,
        operationId: 'listInvitations',
        summary: "The workspace's invitations, newest first (owners); never their links",
        querystring: InvitationListQuery,
        response: { 200: Page(Invitation), ...errors('forbidden', 'invalid_cursor') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const { state } = request.query;
      const paging = openPaging(cursors, ctx, 'invitations.list', { state }, request.query);
      const page = await service.listInvitations(ctx, { state }, paging);
      const at = now();
      return { ...page, data: page.data.map((row) => presentInvitation(row, at)) };
    },
  );

  app.delete(
    '/v1/invitations/:id',
    {
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation (owners): its link stops working',
        params: IdParams,
        response: { 204: Empty, ...errors('forbidden', 'not_found', 'conflict') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) => service.revokeInvitation(ctx, request.params.id));
      return reply.code(204).send();
    },
  );
}
