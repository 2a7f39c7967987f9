import type { App } from '../../app.ts';
import { inTransaction, readContext } from '../../context.ts';
import { auth } from '../../http/auth.ts';
import { checkPageInput, toPage } from '../../http/cursor.ts';
import { invalid } from '../../http/errors.ts';
import { errors, Page } from '../../http/schemas.ts';
import { presentMe, presentUser } from './present.ts';
import { Me, User, UserListQuery, UserUpsertBody } from './schema.ts';
import * as service from './service.ts';

const tags = ['users'];

export default async function userRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;

  app.get(
    '/v1/me',
    { schema: { tags, summary: 'The caller and its workspace', response: { 200: Me, ...errors() } } },
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
        summary: 'Add a user to the workspace (owners and admins), or update one when id is given',
        body: UserUpsertBody,
        response: { 200: User, 201: User, ...errors('not_found', 'forbidden', 'conflict') },
      },
    },
    async (request, reply) => {
      const { id, ...change } = request.body;
      const { row, created } = await inTransaction(database, auth(request), async (ctx) => {
        if (id !== undefined) return { row: await service.updateUser(ctx, id, change), created: false };
        if (change.name === undefined) throw invalid('/body/name', 'is required when creating');
        if (change.email === undefined) throw invalid('/body/email', 'is required when creating');
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
        summary: 'The workspace directory, oldest first',
        querystring: UserListQuery,
        response: { 200: Page(User), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const q = request.query;
      checkPageInput({ limit: q.limit ?? 50, cursor: q.cursor, offset: q.offset });
      const ctx = readContext(database, auth(request));
      const scope = `users|${ctx.workspace.id}|${ctx.actor.role === 'guest' ? ctx.actor.id : ''}`;
      const limit = q.limit ?? 50;
      const rows = await service.listUsers(ctx, {
        limit,
        offset: q.offset,
        after: q.cursor ? cursors.decode(scope, q.cursor, 2) : undefined,
      });
      const page = toPage(rows, limit, cursors, scope, (r) => [r.created_at, r.id]);
      return { ...page, data: page.data.map(presentUser) };
    },
  );
}
