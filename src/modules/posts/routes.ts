import { Type } from 'typebox';
import { inTransaction, readContext } from '../../context.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import { openPaging } from '../../http/cursor.ts';
import { flag, parseExpand } from '../../http/query.ts';
import { Empty, errors, IdParams, Page } from '../../http/schemas.ts';
import { loadEntity } from './entities.ts';
import { presentPosts, presentReaction } from './present.ts';
import {
  POST_EXPANSIONS,
  Post,
  PostCreateBody,
  PostExpanded,
  PostListQuery,
  PostReadQuery,
  PostRepliesQuery,
  Reaction,
  ReactionBody,
  ReactionParams,
} from './schema.ts';
import * as service from './service.ts';

const tags = ['posts'];
const PostRef = Type.Ref('Post');
const ReactionRef = Type.Ref('Reaction');

export default async function postRoutes(app: App): Promise<void> {
  const { database, cursors, config } = app.cairn;
  const url = config.publicUrl;
  app.addSchema(Reaction);
  app.addSchema(Post);
  app.addSchema(PostExpanded);

  app.post(
    '/v1/posts',
    {
      schema: {
        tags,
        operationId: 'createPost',
        summary: 'Post on a task, project or document (a reply with parentId)',
        querystring: PostReadQuery,
        body: PostCreateBody,
        response: { 201: PostRef, ...errors('not_found', 'deleted') },
      },
    },
    async (request, reply) => {
      const expand = parseExpand(request.query, POST_EXPANSIONS);
      const out = await inTransaction(database, auth(request), async (ctx) => {
        const { row, entity } = await service.createUserPost(ctx, request.body);
        return (await presentPosts(ctx, entity, [row], expand, url))[0];
      });
      return reply.code(201).send(out);
    },
  );

  app.get(
    '/v1/posts/list',
    {
      schema: {
        tags,
        operationId: 'listPosts',
        summary: "An entity's top-level posts, oldest first (replies are under each post)",
        querystring: PostListQuery,
        response: { 200: Page(PostRef), ...errors('not_found', 'invalid_cursor') },
      },
    },
    async (request) => {
      const query = request.query;
      const expand = parseExpand(query, POST_EXPANSIONS);
      const ctx = readContext(database, auth(request));
      const entity = await loadEntity(ctx, query.entityType, query.entityId);
      const paging = openPaging(cursors, ctx, 'posts.list', [entity.type, entity.id], query);
      const { data: rows, ...page } = await service.listPosts(ctx, entity, paging, flag(query.includeTotal));
      return { ...page, data: await presentPosts(ctx, entity, rows, expand, url) };
    },
  );

  app.get(
    '/v1/posts/:id',
    {
      schema: {
        tags,
        operationId: 'getPost',
        summary: 'A post by UUID or publicId',
        params: IdParams,
        querystring: PostReadQuery,
        response: { 200: PostRef, ...errors('not_found') },
      },
    },
    async (request) => {
      const ctx = readContext(database, auth(request));
      const { row, entity } = await service.loadVisiblePost(ctx, request.params.id);
      return (await presentPosts(ctx, entity, [row], parseExpand(request.query, POST_EXPANSIONS), url))[0];
    },
  );

  app.get(
    '/v1/posts/:id/replies',
    {
      schema: {
        tags,
        operationId: 'listPostReplies',
        summary: 'Replies to a post, oldest first',
        params: IdParams,
        querystring: PostRepliesQuery,
        response: { 200: Page(PostRef), ...errors('not_found', 'invalid_cursor') },
      },
    },
    async (request) => {
      const query = request.query;
      const expand = parseExpand(query, POST_EXPANSIONS);
      const ctx = readContext(database, auth(request));
      const { row: post, entity } = await service.loadVisiblePost(ctx, request.params.id);
      const paging = openPaging(cursors, ctx, 'posts.replies', post.id, query);
      const { data: rows, ...page } = await service.listReplies(ctx, post, paging, flag(query.includeTotal));
      return { ...page, data: await presentPosts(ctx, entity, rows, expand, url) };
    },
  );

  for (const [action, resolved] of [
    ['resolve', true],
    ['unresolve', false],
  ] as const) {
    app.post(
      `/v1/posts/:id/${action}`,
      {
        schema: {
          tags,
          operationId: `${action}Post`,
          summary: resolved ? 'Mark a thread resolved' : 'Mark a thread unresolved',
          params: IdParams,
          querystring: PostReadQuery,
          response: { 200: PostRef, ...errors('not_found', 'conflict') },
        },
      },
      async (request) => {
        const expand = parseExpand(request.query, POST_EXPANSIONS);
        return inTransaction(database, auth(request), async (ctx) => {
          const { row, entity } = await service.setResolved(ctx, request.params.id, resolved);
          return (await presentPosts(ctx, entity, [row], expand, url))[0];
        });
      },
    );
  }

  app.post(
    '/v1/posts/:id/reactions',
    {
      schema: {
        tags,
        operationId: 'addPostReaction',
        summary: 'React to a post (once per user and reaction: a repeat is 200 and changes nothing)',
        params: IdParams,
        body: ReactionBody,
        response: { 200: ReactionRef, 201: ReactionRef, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      const { row, added } = await inTransaction(database, auth(request), (ctx) =>
        service.react(ctx, request.params.id, request.body.reaction),
      );
      return reply.code(added ? 201 : 200).send(presentReaction(row));
    },
  );

  app.delete(
    '/v1/posts/:id/reactions/:reaction',
    {
      schema: {
        tags,
        operationId: 'removePostReaction',
        summary: "Remove the caller's reaction (204 also when there was none)",
        params: ReactionParams,
        response: { 204: Empty, ...errors('not_found') },
      },
    },
    async (request, reply) => {
      await inTransaction(database, auth(request), (ctx) =>
        service.unreact(ctx, request.params.id, request.params.reaction),
      );
      return reply.code(204).send();
    },
  );
}
