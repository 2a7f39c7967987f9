// The text-search route of a resource (`GET /v1/<collection>/search`), written once: the query's
// filter, its paging scope, the service's tiered page and its total, and the presenter. A resource
// hands over how its query becomes its service's search and the service itself; the operation id
// follows from the collection, so these routes read alike and a new resource copies nothing.
import type { Static, TSchema } from 'typebox';
import { Type } from 'typebox';
import { type Context, readContext } from '../context.ts';
import type { Page, PageRequest, Tiered, Total } from '../db/keyset.ts';
import type { App } from './app-type.ts';
import { auth } from './auth.ts';
import { openPaging, type PagingQuery } from './cursor.ts';
import { type Presentation, type PresentationInput, parsePresentation } from './query.ts';
import { errors, Page as PageSchema } from './schemas.ts';

export interface SearchRoute<Query extends TSchema, Search, Row, Expansion extends string> {
  /** The collection, as in the path (`documents`): the operation is `search<Collection>`. */
  collection: string;
  /** The name of its schema, which the module has added (`Document`). */
  noun: string;
  tags: string[];
  summary: string;
  querystring: Query;
  expansions: readonly Expansion[];
  /** The service's search from the query: what the cursor is bound to, so a cursor keeps its filter. */
  filter(query: Static<Query>): Search;
  search(ctx: Context, search: Search, page: PageRequest): Promise<Page<Tiered<Row>> & Total>;
  present(ctx: Context, rows: Row[], presentation: Presentation<Expansion>): Promise<unknown[]>;
}

export function registerSearchRoute<Query extends TSchema, Search, Row, Expansion extends string>(
  app: App,
  route: SearchRoute<Query, Search, Row, Expansion>,
): void {
  const { database, cursors } = app.cairn;
  const name = route.collection[0]!.toUpperCase() + route.collection.slice(1);
  app.get(
    `/v1/${route.collection}/search`,
    {
      schema: {
        tags: route.tags,
        operationId: `search${name}`,
        summary: route.summary,
        querystring: route.querystring,
        response: { 200: PageSchema(Type.Ref(route.noun)), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const query = request.query as Static<Query> & PagingQuery & PresentationInput;
      const presentation = parsePresentation(query, route.expansions);
      const ctx = readContext(database, auth(request));
      const search = route.filter(query);
      const paging = openPaging(cursors, ctx, `${route.collection}.search`, search, query);
      // Presented as soon as the page's rows are known, where the total may still be counting.
      let presenting: { rows: unknown[]; data: Promise<unknown[]> } | undefined;
      paging.rowsKnown = (rows) => {
        const data = route.present(ctx, rows as Row[], presentation);
        data.catch(() => {}); // awaited below; a failure is answered from there
        presenting = { rows, data };
      };
      const { data: hits, ...page } = await route.search(ctx, search, paging);
      const rows = hits.map((hit) => hit.row);
      const early = presenting && sameRows(presenting.rows, rows) ? presenting.data : undefined;
      return { ...page, data: await (early ?? route.present(ctx, rows, presentation)) };
    },
  );
}

function sameRows(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((row, i) => row === b[i]);
}
