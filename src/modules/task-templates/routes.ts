import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { flag, parsePresentation } from '../../http/query.ts';
import { DEFAULT_LIMIT, Empty, errors, IdParams, List } from '../../http/schemas.ts';
import { presentTasks } from '../tasks/present.ts';
import { presentTaskTemplates } from './present.ts';
import {
  CreateTaskBody,
  CreateTaskQuery,
  madeFromTemplate,
  SKIPPED_HEADER,
  TaskTemplate,
  TaskTemplateListQuery,
  TaskTemplateUpsertBody,
  TEMPLATE_TASK_EXPANSIONS,
  TemplateGetQuery,
} from './schema.ts';
import * as service from './service.ts';

const tags = ['task templates'];
const TemplateRef = Type.Ref('TaskTemplate');

export default async function taskTemplateRoutes(app: App): Promise<void> {
  const { database } = app.cairn;
  app.addSchema(TaskTemplate);

  app.post(
    '/v1/task-templates',
    {
      schema: {
        tags,
        operationId: 'upsertTaskTemplate',
        summary: 'Create a task template, or update one when id is given',
        body: TaskTemplateUpsertBody,
        response: { 200: TemplateRef, 201: TemplateRef, ...errors('not_found', 'forbidden', 'deleted') },
      },
    },
    async (request, reply) => {
      const { created, out } = await inTransaction(database, auth(request), async (ctx) => {
        const { row, created } = await service.upsertTaskTemplate(ctx, request.body);
        return { created, out: (await presentTaskTemplates(ctx, [row]))[0]! };
      });
      return reply.code(created ? 201 : 200).send(out);
    },
  );

  app.get(
    '/v1/task-templates',
    {
      schema: {
        tags,
        operationId: 'listTaskTemplates',
        summary: 'The task templates the caller sees, oldest first',
        querystring: TaskTemplateListQuery,
        response: { 200: List(TemplateRef), ...errors() },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const query = request.query;
      const rows = await service.listTaskTemplates(ctx, {
        areaId: query.areaId,
        scopeId: query.scopeId,
        projectId: query.projectId,
        includeDeleted: flag(query.includeDeleted),
        limit: query.limit ?? DEFAULT_LIMIT,
      });
      return {
        data: await presentTaskTemplates(ctx, rows, { includeMarkdown: flag(query.includeMarkdown) }),
      };
    },
  );

  app.get(
    '/v1/task-templates/:id',
    {
      schema: {
        tags,
        operationId: 'getTaskTemplate',
        summary: 'A task template by UUID or publicId (a deleted one too, with deletedAt)',
        params: IdParams,
        querystring: TemplateGetQuery,
        response: { 200: TemplateRef, ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const row = await service.loadVisibleTaskTemplate(ctx, request.params.id);
      return (
        await presentTaskTemplates(ctx, [row], { includeMarkdown: flag(request.query.includeMarkdown) })
      )[0];
    },
  );

  app.delete(
    '/v1/task-templates/:id',
    {
      schema: {
        tags,
        operationId: 'deleteTaskTemplate',
        summary: 'Soft-delete a task template (deleting it again changes nothing)',
        params: IdParams,
        response: { 204: Empty, ...errors('not_found', 'forbidden') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) =>
        service.deleteTaskTemplate(ctx, request.params.id),
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/task-templates/:id/create-task',
    {
      config: { optionalBody: true, location: '/v1/tasks' },
      schema: {
        tags,
        operationId: 'createTaskFromTemplate',
        summary: "Make a task (and one per child template) in the template's area",
        params: IdParams,
        querystring: CreateTaskQuery,
        body: CreateTaskBody,
        response: { 201: madeFromTemplate('Task'), ...errors('not_found', 'deleted', 'conflict') },
      },
    },
    async (request, reply) => {
      const presentation = parsePresentation(request.query, TEMPLATE_TASK_EXPANSIONS);
      const { made, skipped } = await inTransaction(database, auth(request), (ctx) =>
        service.createTaskFromTemplate(ctx, request.params.id, request.body),
      );
      const [out] = await presentTasks(readContext(database, auth(request)), [made], presentation);
      if (skipped.length > 0) reply.header(SKIPPED_HEADER, skipped.join(', '));
      return reply.code(201).send(out);
    },
  );
}
