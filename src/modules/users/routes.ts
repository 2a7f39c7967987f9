import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { invalid } from '../../http/errors.ts';
import { errors, IdParams, Page } from '../../http/schemas.ts';
import { presentMe, presentUser } from './present.ts';
import { Me, User, UserListQuery, UserUpsertBody } from './schema.ts';
import * as service from './service.ts';

const tags = ['users'];

export default async function userRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;

  app.get(
    '/v1/me',
    {
      schema: {
        tags,
        operationId: 'getMe',
        summary: 'The caller and its workspace',
        response: { 200: Me, ...errors() },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      return presentMe(await service.getMe(ctx), ctx.workspace);
    },
  );

  app.post(
    '/v1/users',
    {
      schema: {
        tags,
        operationId: 'upsertUser',
        summary: 'Add a user to the workspace (owners and admins), or update one when id is given',
        body: UserUpsertBody,
        response: { 200: User, 201: User, ...errors('not_found', 'forbidden', 'conflict') },
      },
    },
    async (request, reply) => {
      const { id, ...change } = request.body;
      const { row, created } = await inTransaction(database, auth(request), async (ctx) => {
        if (id !== undefined) return { row: await service.updateUser(ctx, id, change), created: false };
        if (change.name === undefined) throw invalid('name', 'is required when creating');
        if (change.email === undefined) throw invalid('email', 'is required when creating');
        const input = { name: change.name, email: change.email, role: change.role ?? 'member' };
        return { row: await service.createUser(ctx, input), created: true };
      });
      return reply.code(created ? 201 : 200).send(presentUser(row));
    },
  );

  app.get(
    '/v1/users',
    {
      schema: {
        tags,
        operationId: 'listUsers',
        summary: 'The workspace directory, oldest first',
        querystring: UserListQuery,
        response: { 200: Page(User), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const paging = openPaging(cursors, ctx, 'users.list', null, request.query);
      const page = await service.listUsers(ctx, paging);
      return { ...page, data: page.data.map(presentUser) };
    },
  );

  app.get(
    '/v1/users/:id',
    {
      schema: {
        tags,
        operationId: 'getUser',
        summary: "A person of the caller's directory, by id (guests: themselves and their groups' people)",
        params: IdParams,
        response: { 200: User, ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      return presentUser(await service.getUser(ctx, request.params.id));
    },
  );
}
