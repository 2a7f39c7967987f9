// /v1/teams and /v1/areas: the same operations on the two kinds of group, registered once per kind.
import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { GroupKind } from '../../db/types.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { flag, parseExpand } from '../../http/query.ts';
import { errors, IdParams, Page } from '../../http/schemas.ts';
import { presentGroups } from './present.ts';
import {
  Area,
  AreaExpanded,
  AreaUpsertBody,
  GROUP_EXPANSIONS,
  GroupGetQuery,
  Team,
  TeamExpanded,
  TeamSearchQuery,
  TeamUpsertBody,
} from './schema.ts';
import * as service from './service.ts';

export default async function groupRoutes(app: App): Promise<void> {
  const { database, cursors } = app.cairn;
  app.addSchema(Team);
  app.addSchema(Area);
  app.addSchema(TeamExpanded);
  app.addSchema(AreaExpanded);

  for (const kind of ['team', 'area'] as const satisfies GroupKind[]) {
    const path = `/v1/${kind}s`;
    const shape = kind === 'team' ? 'Team' : 'Area';
    const tags = [`${kind}s`];
    const Kind = kind === 'team' ? 'Team' : 'Area';
    const one = { 200: Type.Ref(shape), ...errors('not_found', 'forbidden') };

    app.post(
      path,
      {
        schema: {
          tags,
          operationId: `upsert${Kind}`,
          summary: `Create a ${kind}, or update one when id is given`,
          querystring: GroupGetQuery,
          body: kind === 'team' ? TeamUpsertBody : AreaUpsertBody,
          response: { ...one, 201: Type.Ref(shape), ...errors('not_found', 'forbidden', 'conflict') },
        },
      },
      async (request, reply) => {
        const expand = parseExpand(request.query, GROUP_EXPANSIONS);
        const { created, out } = await inTransaction(database, auth(request), async (ctx) => {
          const { row, created } = await service.upsertGroup(ctx, kind, request.body);
          return { created, out: (await presentGroups(ctx, [row], expand))[0] };
        });
        return reply.code(created ? 201 : 200).send(out);
      },
    );

    app.get(
      `${path}/:id`,
      {
        schema: {
          tags,
          operationId: `get${Kind}`,
          summary: `A ${kind} by UUID or publicId`,
          params: IdParams,
          querystring: GroupGetQuery,
          response: one,
        },
      },
      async (request) => {
        const expand = parseExpand(request.query, GROUP_EXPANSIONS);
        const ctx = readContext(database, auth(request));
        const { row } = await service.loadVisibleGroup(ctx, kind, request.params.id);
        return (await presentGroups(ctx, [row], expand))[0];
      },
    );

    for (const action of ['archive', 'unarchive'] as const) {
      app.post(
        `${path}/:id/${action}`,
        {
          schema: {
            tags,
            operationId: `${action}${Kind}`,
            summary: action === 'archive' ? `Archive a ${kind}` : `Unarchive a ${kind}`,
            params: IdParams,
            querystring: GroupGetQuery,
            response:
              action === 'archive' ? one : { ...one, ...errors('not_found', 'forbidden', 'not_archived') },
          },
        },
        async (request) => {
          const expand = parseExpand(request.query, GROUP_EXPANSIONS);
          return inTransaction(database, auth(request), async (ctx) => {
            const row =
              action === 'archive'
                ? await service.archiveGroup(ctx, kind, request.params.id)
                : await service.unarchiveGroup(ctx, kind, request.params.id);
            return (await presentGroups(ctx, [row], expand))[0];
          });
        },
      );
    }
  }

  app.get(
    '/v1/teams/search',
    {
      schema: {
        tags: ['teams'],
        operationId: 'searchTeams',
        summary: 'Search teams by name',
        description:
          'Every word of name must be a prefix of a word of the team name (case, accents and Unicode forms folded). Newest change first.',
        querystring: TeamSearchQuery,
        response: { 200: Page(Type.Ref('Team')), ...errors('invalid_cursor') },
      },
    },
    async (request) => {
      const query = request.query;
      const expand = parseExpand(query, GROUP_EXPANSIONS);
      const ctx = readContext(database, auth(request));
      const filter = {
        name: query.name ?? '',
        mode: query.matchMode ?? 'all',
        includeArchived: flag(query.includeArchived),
      };
      const paging = openPaging(cursors, ctx, 'teams.search', filter, query);
      const page = await service.searchTeams(ctx, filter, paging);
      return { ...page, data: await presentGroups(ctx, page.data, expand) };
    },
  );
}
