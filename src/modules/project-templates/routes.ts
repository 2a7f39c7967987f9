import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { flag, parsePresentation } from '../../http/query.ts';
import { DEFAULT_LIMIT, Empty, errors, IdParams, List } from '../../http/schemas.ts';
import { presentProjects } from '../projects/present.ts';
import { madeFromTemplate, SKIPPED_HEADER } from '../task-templates/schema.ts';
import { presentProjectTemplates } from './present.ts';
import {
  CreateProjectBody,
  CreateProjectQuery,
  ProjectTemplate,
  ProjectTemplateListQuery,
  ProjectTemplateUpsertBody,
  TEMPLATE_PROJECT_EXPANSIONS,
  TemplateGetQuery,
} from './schema.ts';
import * as service from './service.ts';

const tags = ['project templates'];
const TemplateRef = Type.Ref('ProjectTemplate');

export default async function projectTemplateRoutes(app: App): Promise<void> {
  const { database } = app.cairn;
  app.addSchema(ProjectTemplate);

  app.post(
    '/v1/project-templates',
    {
      schema: {
        tags,
        operationId: 'upsertProjectTemplate',
        summary: 'Create a project template, or update one when id is given',
        body: ProjectTemplateUpsertBody,
        response: { 200: TemplateRef, 201: TemplateRef, ...errors('not_found', 'forbidden', 'deleted') },
      },
    },
    async (request, reply) => {
      const { created, out } = await inTransaction(database, auth(request), async (ctx) => {
        const { template, created } = await service.upsertProjectTemplate(ctx, request.body);
        return { created, out: (await presentProjectTemplates(ctx, [template]))[0]! };
      });
      return reply.code(created ? 201 : 200).send(out);
    },
  );

  app.get(
    '/v1/project-templates',
    {
      schema: {
        tags,
        operationId: 'listProjectTemplates',
        summary: 'The project templates the caller sees, oldest first',
        querystring: ProjectTemplateListQuery,
        response: { 200: List(TemplateRef), ...errors() },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const query = request.query;
      const templates = await service.listProjectTemplates(ctx, {
        areaId: query.areaId,
        ownedByAreaId: query.ownedByAreaId,
        includeDeleted: flag(query.includeDeleted),
        limit: query.limit ?? DEFAULT_LIMIT,
      });
      return {
        data: await presentProjectTemplates(ctx, templates, { includeMarkdown: flag(query.includeMarkdown) }),
      };
    },
  );

  app.get(
    '/v1/project-templates/:id',
    {
      schema: {
        tags,
        operationId: 'getProjectTemplate',
        summary: 'A project template by UUID or publicId (a deleted one too, with deletedAt)',
        params: IdParams,
        querystring: TemplateGetQuery,
        response: { 200: TemplateRef, ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const template = await service.loadTemplate(ctx, request.params.id);
      const includeMarkdown = flag(request.query.includeMarkdown);
      return (await presentProjectTemplates(ctx, [template], { includeMarkdown }))[0];
    },
  );

  app.delete(
    '/v1/project-templates/:id',
    {
      schema: {
        tags,
        operationId: 'deleteProjectTemplate',
        summary: 'Soft-delete a project template (deleting it again changes nothing)',
        params: IdParams,
        response: { 204: Empty, ...errors('not_found', 'forbidden') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) =>
        service.deleteProjectTemplate(ctx, request.params.id),
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/project-templates/:id/create-project',
    {
      config: { optionalBody: true, location: '/v1/projects' },
      schema: {
        tags,
        operationId: 'createProjectFromTemplate',
        summary: "Make a project in the template's area, with a task per task template scoped to it",
        params: IdParams,
        querystring: CreateProjectQuery,
        body: CreateProjectBody,
        response: {
          201: madeFromTemplate('Project'),
          ...errors('not_found', 'forbidden', 'deleted', 'conflict'),
        },
      },
    },
    async (request, reply) => {
      const presentation = parsePresentation(request.query, TEMPLATE_PROJECT_EXPANSIONS);
      const { out, skipped } = await inTransaction(database, auth(request), async (ctx) => {
        const { made, skipped } = await service.createProjectFromTemplate(
          ctx,
          request.params.id,
          request.body,
        );
        return { out: (await presentProjects(ctx, [made], presentation))[0], skipped };
      });
      if (skipped.length > 0) reply.header(SKIPPED_HEADER, skipped.join(', '));
      return reply.code(201).send(out);
    },
  );
}
