// The routes a soft-deletable resource has by id, written once: get, delete and restore. A resource
// hands over its service's load, delete and restore and its presenter; paths, operation ids,
// summaries and answers follow from its names, so these routes read alike across resources and a new
// one copies nothing.
import { type TSchema, Type } from 'typebox';
import { type Context, inTransaction, readContext } from '../context.ts';
import type { App } from './app-type.ts';
import { auth } from './auth.ts';
import type { ErrorCode } from './errors.ts';
import { type Presentation, type PresentationInput, parsePresentation } from './query.ts';
import { Empty, errors, IdParams } from './schemas.ts';

export interface ItemRoutes<Row, Expansion extends string> {
  /** The collection, as in the paths (`documents`). */
  collection: string;
  /** One of them: in the operation ids (`Document`: getDocument) and, lower-cased, in the summaries. */
  noun: string;
  tags: string[];
  /** Its read query (expansions, includeMarkdown), for get and restore. */
  readQuery: TSchema;
  expansions: readonly Expansion[];
  /** Load by UUID or publicId, deleted or not; 404 when the caller cannot see it. */
  load(ctx: Context, ref: string): Promise<Row>;
  /** Soft delete; deleting a deleted one changes nothing. */
  delete(ctx: Context, ref: string): Promise<void>;
  /** Restore a deleted one (409 not_deleted otherwise). */
  restore(ctx: Context, ref: string): Promise<Row>;
  present(ctx: Context, rows: Row[], presentation: Presentation<Expansion>): Promise<unknown[]>;
  /**
   * What delete and restore may answer besides 404 (and restore's 409), for the document: `forbidden`
   * where the policy lets some who see one not change it (a guest). None by default: documents.
   */
  writeErrors?: readonly ErrorCode[];
}

/** GET, DELETE and POST …/restore of `/v1/<collection>/:id`; the module has added its `<noun>` schema. */
export function registerItemRoutes<Row, Expansion extends string>(
  app: App,
  routes: ItemRoutes<Row, Expansion>,
): void {
  registerGet(app, routes);
  registerDelete(app, routes);
  registerRestore(app, routes);
}

function presentationOf<Expansion extends string>(routes: ItemRoutes<unknown, Expansion>, query: unknown) {
  return parsePresentation(query as PresentationInput, routes.expansions);
}

function registerGet<Row, Expansion extends string>(app: App, routes: ItemRoutes<Row, Expansion>): void {
  const { database } = app.cairn;
  app.get(
    `/v1/${routes.collection}/:id`,
    {
      schema: {
        tags: routes.tags,
        operationId: `get${routes.noun}`,
        summary: `A ${routes.noun.toLowerCase()} by UUID or publicId (a deleted one too, with deletedAt)`,
        params: IdParams,
        querystring: routes.readQuery,
        response: { 200: Type.Ref(routes.noun), ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const row = await routes.load(ctx, request.params.id);
      return (await routes.present(ctx, [row], presentationOf(routes, request.query)))[0];
    },
  );
}

function registerDelete<Row, Expansion extends string>(app: App, routes: ItemRoutes<Row, Expansion>): void {
  const { database } = app.cairn;
  app.delete(
    `/v1/${routes.collection}/:id`,
    {
      schema: {
        tags: routes.tags,
        operationId: `delete${routes.noun}`,
        summary: `Soft-delete a ${routes.noun.toLowerCase()} (deleting it again changes nothing)`,
        params: IdParams,
        response: { 204: Empty, ...errors('not_found', ...(routes.writeErrors ?? [])) },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) => routes.delete(ctx, request.params.id));
      return reply.code(204).send();
    },
  );
}

function registerRestore<Row, Expansion extends string>(app: App, routes: ItemRoutes<Row, Expansion>): void {
  const { database } = app.cairn;
  app.post(
    `/v1/${routes.collection}/:id/restore`,
    {
      schema: {
        tags: routes.tags,
        operationId: `restore${routes.noun}`,
        summary: `Restore a soft-deleted ${routes.noun.toLowerCase()}`,
        params: IdParams,
        querystring: routes.readQuery,
        response: {
          200: Type.Ref(routes.noun),
          ...errors('not_found', 'not_deleted', ...(routes.writeErrors ?? [])),
        },
      },
    },
    async (request) => {
      const presentation = presentationOf(routes, request.query);
      return inTransaction(database, auth(request), async (ctx) => {
        const row = await routes.restore(ctx, request.params.id);
        return (await routes.present(ctx, [row], presentation))[0];
      });
    },
  );
}
