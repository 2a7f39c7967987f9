import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { errors, List } from '../../http/schemas.ts';
import { presentProjectStatus } from './present.ts';
import { ProjectStatus, ProjectStatusUpsertBody } from './schema.ts';
import * as service from './service.ts';

const tags = ['projects'];

export default async function projectStatusRoutes(app: App): Promise<void> {
  const { database } = app.cairn;

  app.get(
    '/v1/project-statuses',
    {
      schema: {
        tags,
        operationId: 'listProjectStatuses',
        summary: "The workspace's project statuses, in order",
        response: { 200: List(ProjectStatus), ...errors() },
      },
    },
    async (request) => {
      const rows = await service.listStatuses(readContext(database, auth(request)));
      return { data: rows.map(presentProjectStatus) };
    },
  );

  app.post(
    '/v1/project-statuses',
    {
      schema: {
        tags,
        operationId: 'upsertProjectStatus',
        summary: 'Create a project status, or update one when id is given (owners and admins)',
        body: ProjectStatusUpsertBody,
        response: { 200: ProjectStatus, 201: ProjectStatus, ...errors('not_found', 'forbidden') },
      },
    },
    async (request, reply) => {
      const { row, created } = await inTransaction(database, auth(request), (ctx) =>
        service.upsertStatus(ctx, request.body),
      );
      return reply.code(created ? 201 : 200).send(presentProjectStatus(row));
    },
  );
}
