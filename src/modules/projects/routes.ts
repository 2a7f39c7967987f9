import { Type } from 'typebox';
import { type Context, inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { flag, parsePresentation, sinceInstant } from '../../http/query.ts';
import { errors, IdParams, Page } from '../../http/schemas.ts';
import { registerSearchRoute } from '../../http/search-route.ts';
import { type ProjectPresentation, presentProjectRows, presentProjects } from './present.ts';
import {
  PROJECT_EXPANSIONS,
  ProjectExpanded,
  ProjectListQuery,
  ProjectReadQuery,
  ProjectSearchQuery,
  ProjectStatusUpdateBody,
  ProjectUpsertBody,
} from './schema.ts';
import type { LoadedProject } from './service.ts';
import * as service from './service.ts';

const tags = ['projects'];
const ProjectRef = Type.Ref('Project');

async function one(ctx: Context, project: LoadedProject, presentation: ProjectPresentation) {
  return (await presentProjects(ctx, [project], presentation))[0]!;
}

export default async function projectRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;
  app.addSchema(ProjectExpanded);

  app.post(
    '/v1/projects',
    {
      schema: {
        tags,
        operationId: 'upsertProject',
        summary: 'Create a project, or update one when id is given',
        querystring: ProjectReadQuery,
        body: ProjectUpsertBody,
        response: { 200: ProjectRef, 201: ProjectRef, ...errors('not_found', 'forbidden', 'conflict') },
      },
    },
    async (request, reply) => {
      const presentation = parsePresentation(request.query, PROJECT_EXPANSIONS);
      const { created, out } = await inTransaction(database, auth(request), async (ctx) => {
        const { project, created } = await service.upsertProject(ctx, request.body);
        return { created, out: await one(ctx, project, presentation) };
      });
      return reply.code(created ? 201 : 200).send(out);
    },
  );

  app.get(
    '/v1/projects/:id',
    {
      schema: {
        tags,
        operationId: 'getProject',
        summary: 'A project by UUID or publicId',
        params: IdParams,
        querystring: ProjectReadQuery,
        response: { 200: ProjectRef, ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      return one(
        ctx,
        await service.loadVisibleProject(ctx, request.params.id),
        parsePresentation(request.query, PROJECT_EXPANSIONS),
      );
    },
  );

  const actions = {
    archive: { summary: 'Archive a project', run: service.archiveProject, codes: [] },
    unarchive: { summary: 'Unarchive a project', run: service.unarchiveProject, codes: ['not_archived'] },
  } as const;
  for (const [action, { summary, run, codes }] of Object.entries(actions)) {
    app.post(
      `/v1/projects/:id/${action}`,
      {
        schema: {
          tags,
          operationId: `${action}Project`,
          summary,
          params: IdParams,
          querystring: ProjectReadQuery,
          response: { 200: ProjectRef, ...errors('not_found', 'forbidden', ...codes) },
        },
      },
      async (request) => {
        const presentation = parsePresentation(request.query, PROJECT_EXPANSIONS);
        return inTransaction(database, auth(request), async (ctx) =>
          one(ctx, await run(ctx, request.params.id), presentation),
        );
      },
    );
  }

  app.post(
    '/v1/projects/:id/status-update',
    {
      schema: {
        tags,
        operationId: 'postProjectStatusUpdate',
        summary: 'Set the project status and post a status update',
        params: IdParams,
        querystring: ProjectReadQuery,
        body: ProjectStatusUpdateBody,
        response: { 200: ProjectRef, ...errors('not_found', 'forbidden') },
      },
    },
    async (request) => {
      const presentation = parsePresentation(request.query, PROJECT_EXPANSIONS);
      return inTransaction(database, auth(request), async (ctx) =>
        one(ctx, await service.postStatusUpdate(ctx, request.params.id, request.body), presentation),
      );
    },
  );

  app.get(
    '/v1/projects/list',
    {
      schema: {
        tags,
        operationId: 'listProjects',
        summary: 'Projects, newest first',
        querystring: ProjectListQuery,
        response: { 200: Page(ProjectRef), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const query = request.query;
      const presentation = parsePresentation(query, PROJECT_EXPANSIONS);
      const ctx = readContext(database, auth(request));
      const filter = {
        teamId: query.teamId,
        ownerId: query.ownerId,
        statusId: query.statusId,
        collectionId: query.collectionId,
        includeArchived: flag(query.includeArchived),
      };
      const paging = openPaging(cursors, ctx, 'projects.list', filter, query);
      const { data: rows, ...page } = await service.listProjects(
        ctx,
        filter,
        paging,
        flag(query.includeTotal),
      );
      return { ...page, data: await presentProjectRows(ctx, rows, presentation) };
    },
  );

  registerSearchRoute(app, {
    collection: 'projects',
    noun: 'Project',
    tags,
    summary: 'Search projects by name, description, owner name and team name',
    querystring: ProjectSearchQuery,
    expansions: PROJECT_EXPANSIONS,
    filter: (query) =>
      ({
        name: query.name,
        description: query.description,
        ownerName: query.ownerName,
        teamName: query.teamName,
        mode: query.matchMode ?? 'all',
        teamId: query.teamId,
        includeArchived: flag(query.includeArchived),
        updatedSince: sinceInstant(query.updatedSince),
      }) as const,
    search: service.searchProjects,
    present: presentProjectRows,
  });
}
