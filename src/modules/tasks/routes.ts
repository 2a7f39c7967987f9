import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { prefetched } from '../../http/prefetch.ts';
import { flag, parsePresentation, sinceInstant } from '../../http/query.ts';
import { Empty, errors, IdParams } from '../../http/schemas.ts';
import { registerSearchRoute } from '../../http/search-route.ts';
import { runBatch } from './batch.ts';
import { COUNTER_QUEUE } from './counts.ts';
import { prefetchTask, presentTasks, presentVisibleTask } from './present.ts';
import {
  TASK_EXPANSIONS,
  TaskBatchBody,
  TaskBatchResult,
  TaskExpanded,
  TaskReadQuery,
  TaskSearchQuery,
  TaskUpsertBody,
} from './schema.ts';
import { searchTasks } from './search.ts';
import * as service from './service.ts';

const tags = ['tasks'];
const TaskRef = Type.Ref('Task');

export default async function taskRoutes(app: App): Promise<void> {
  const { database } = app.cairn;
  app.addSchema(TaskExpanded);

  app.post(
    '/v1/tasks',
    {
      schema: {
        tags,
        operationId: 'upsertTask',
        summary: 'Create a task, or update one when id is given',
        querystring: TaskReadQuery,
        body: TaskUpsertBody,
        response: { 200: TaskRef, 201: TaskRef, ...errors('not_found', 'deleted', 'conflict') },
      },
    },
    async (request, reply) => {
      const presentation = parsePresentation(request.query, TASK_EXPANSIONS);
      const queue = request.body.id === undefined ? COUNTER_QUEUE : undefined;
      const { row, created } = await inTransaction(
        database,
        auth(request),
        (ctx) => service.upsertTask(ctx, request.body),
        { queue },
      );
      // The row as written; its labels and expansions are read after the commit, in one statement
      // (present.ts).
      const [out] = await presentTasks(readContext(database, auth(request)), [row], presentation);
      return reply.code(created ? 201 : 200).send(out);
    },
  );

  app.post(
    '/v1/tasks/batch',
    {
      // If-Match is refused below, so the document leaves it out (http/conventions.ts).
      config: { entries: 'tasks', ifMatch: false },
      schema: {
        tags,
        operationId: 'batchUpsertTasks',
        summary: 'Create or update up to 100 tasks; each entry succeeds or fails on its own',
        querystring: TaskReadQuery,
        body: TaskBatchBody,
        response: { 200: TaskBatchResult, ...errors() },
      },
    },
    async (request) => {
      // One If-Match cannot name a version for each entry: refused rather than applied to all.
      if (request.headers['if-match'] !== undefined) {
        throw new AppError('validation_failed', 'If-Match applies to one task; send it with POST /v1/tasks', [
          { path: '/headers/if-match', message: 'is not taken by a batch' },
        ]);
      }
      const presentation = parsePresentation(request.query, TASK_EXPANSIONS);
      return runBatch(database, auth(request), request.body.tasks, request.log, (ctx, saved) =>
        presentTasks(
          ctx,
          saved.map((entry) => entry.row),
          presentation,
        ),
      );
    },
  );

  registerSearchRoute(app, {
    collection: 'tasks',
    noun: 'Task',
    tags,
    summary: 'Search tasks by name, description, project, team and assignee name',
    querystring: TaskSearchQuery,
    expansions: TASK_EXPANSIONS,
    filter: (query) =>
      ({
        name: query.name,
        description: query.description,
        projectName: query.projectName,
        teamName: query.teamName,
        assigneeName: query.assigneeName,
        mode: query.matchMode ?? 'all',
        teamId: query.teamId,
        projectId: query.projectId,
        statusId: query.statusId,
        assignedToId: query.assignedToId,
        labelId: query.labelId,
        updatedSince: sinceInstant(query.updatedSince),
        includeDeleted: flag(query.includeDeleted),
      }) as const,
    search: searchTasks,
    present: presentTasks,
  });

  app.get(
    '/v1/tasks/:id',
    {
      schema: {
        tags,
        operationId: 'getTask',
        summary: 'A task by UUID or publicId (a deleted one too, with deletedAt)',
        params: IdParams,
        querystring: TaskReadQuery,
        response: { 200: TaskRef, ...errors('not_found') },
      },
      // On PostgreSQL the task is read beside the token lookup once the token is known.
      config: {
        prefetch: (db, dialect, workspaceId, request) =>
          prefetchTask(db, dialect, workspaceId, (request.params as { id: string }).id),
      },
    },
    async (request) => {
      // The task with its expansions in one statement (present.ts).
      const presentation = parsePresentation(request.query, TASK_EXPANSIONS);
      const ctx = readContext(database, auth(request));
      const started = prefetched<Awaited<ReturnType<typeof prefetchTask>>>(request, ctx.workspace.id);
      return presentVisibleTask(ctx, request.params.id, presentation, started);
    },
  );

  app.delete(
    '/v1/tasks/:id',
    {
      schema: {
        tags,
        operationId: 'deleteTask',
        summary: 'Soft-delete a task (deleting it again changes nothing)',
        params: IdParams,
        response: { 204: Empty, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) => service.deleteTask(ctx, request.params.id), {
        queue: COUNTER_QUEUE,
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/v1/tasks/:id/restore',
    {
      schema: {
        tags,
        operationId: 'restoreTask',
        summary: 'Restore a soft-deleted task',
        params: IdParams,
        querystring: TaskReadQuery,
        response: { 200: TaskRef, ...errors('not_found', 'not_deleted') },
      },
    },
    async (request) => {
      const presentation = parsePresentation(request.query, TASK_EXPANSIONS);
      const row = await inTransaction(
        database,
        auth(request),
        (ctx) => service.restoreTask(ctx, request.params.id),
        { queue: COUNTER_QUEUE },
      );
      return (await presentTasks(readContext(database, auth(request)), [row], presentation))[0];
    },
  );
}
