// Posts: comments and status updates on a task, project or document, with one level of replies,
// images, reactions and resolved threads. A post is visible exactly when its entity is.
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { listPage } from '../../db/listing.ts';
import { AppError, conflict, invalid, notFound } from '../../http/errors.ts';
import { textRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import { type Entity, entityKey, loadEntity, loadVisibleEntities } from './entities.ts';
import type { PostRow, ReactionRow } from './repository.ts';
import * as repo from './repository.ts';
import type { PostCreateBody } from './schema.ts';
import { createPost } from './write.ts';

export interface LoadedPost {
  row: PostRow;
  entity: Entity;
}

/** A post whose entity the caller sees, by UUID or publicId; 404 otherwise. */
export async function loadVisiblePost(ctx: Context, ref: string, forChange = false): Promise<LoadedPost> {
  const row = await repo.findPost(
    ctx.db,
    ctx.workspace.id,
    textRef(ref),
    forChange && ctx.dialect === 'postgres',
  );
  if (!row) throw notFound('Post');
  try {
    const entity = await loadEntity(ctx, row.entity_type as Entity['type'], row.entity_id);
    if (forChange) checkVersion(ctx, 'post', row.updated_at);
    return { row, entity };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') throw notFound('Post');
    throw error;
  }
}

/** The posts of these ids (UUIDs) whose entity ctx sees, with it: one query per kind (event data). */
export async function loadVisiblePosts(ctx: Context, ids: string[]): Promise<LoadedPost[]> {
  const rows = await repo.findPostsByIds(ctx.db, ctx.workspace.id, ids);
  const entities = await loadVisibleEntities(
    ctx,
    rows.map((row) => ({ type: row.entity_type as Entity['type'], id: row.entity_id })),
  );
  return rows.flatMap((row) => {
    const entity = entities.get(entityKey({ type: row.entity_type as Entity['type'], id: row.entity_id }));
    return entity ? [{ row, entity }] : [];
  });
}

/** The key of an image: its URL's path, as an object store names it (`shots/board.png`). */
function imageKey(url: string, path: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(path, 'is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(path, 'must be http(s)');
  const key = parsed.pathname.replace(/^\/+/, '');
  try {
    return decodeURIComponent(key) || parsed.hostname;
  } catch {
    return key || parsed.hostname;
  }
}

/** POST /v1/posts: a post, or a reply to a top-level post of the same entity. */
export async function createUserPost(ctx: Context, body: PostCreateBody): Promise<LoadedPost> {
  const entity = await loadEntity(ctx, body.entityType, body.entityId);
  if (entity.deleted) throw new AppError('deleted', `This ${entity.type} is deleted; restore it first`);
  let parentId: string | undefined;
  if (body.parentId !== undefined) {
    const parent = await repo.findPost(ctx.db, ctx.workspace.id, textRef(body.parentId));
    if (!parent || parent.entity_type !== entity.type || parent.entity_id !== entity.id)
      throw invalid('parentId', `no post with this id on this ${entity.type}`);
    if (parent.parent_id !== null) throw invalid('parentId', 'is a reply; reply to the post it answers');
    parentId = parent.id;
  }
  const images = (body.images ?? []).map((image, i) => ({
    ...image,
    key: imageKey(image.url, `images/${i}/url`),
  }));
  const row = await createPost(ctx, {
    entityType: entity.type,
    entityId: entity.id,
    content: body.content,
    parentId,
    at: now(),
  });
  await repo.insertImages(
    ctx.db,
    images.map((image, position) => ({
      workspace_id: ctx.workspace.id,
      id: randomUUID(),
      post_id: row.id,
      position,
      url: image.url,
      key: image.key,
      width: image.width,
      height: image.height,
    })),
  );
  return { row, entity };
}

/** Top-level posts of an entity the caller sees (GET /v1/posts/list), oldest first. */
export async function listPosts(
  ctx: Context,
  entity: Entity,
  page: PageRequest,
  withTotal: boolean,
): Promise<Page<PostRow> & { total?: number }> {
  const where = [repo.threadOf({ entityType: entity.type, entityId: entity.id })];
  return listPage(ctx, repo.POST_LIST, where, page, withTotal);
}

/** Replies to a post, oldest first. */
export async function listReplies(
  ctx: Context,
  post: PostRow,
  page: PageRequest,
  withTotal: boolean,
): Promise<Page<PostRow> & { total?: number }> {
  return listPage(ctx, repo.POST_LIST, [repo.threadOf({ parentId: post.id })], page, withTotal);
}

/** Resolves (or unresolves) a thread; doing it again changes nothing. */
export async function setResolved(ctx: Context, ref: string, resolved: boolean): Promise<LoadedPost> {
  const post = await loadVisiblePost(ctx, ref, true);
  if (post.row.parent_id !== null)
    throw conflict('Only a thread (a top-level post) is resolved, not a reply');
  if (Boolean(post.row.is_resolved) === resolved) return post;
  const at = changedAt(post.row.updated_at);
  if (!(await repo.setResolved(ctx.db, ctx.workspace.id, post.row.id, resolved, at))) return post;
  return { ...post, row: { ...post.row, is_resolved: resolved, updated_at: at } };
}

/**
 * A reaction is removed by naming it in a path (`DELETE …/reactions/{reaction}`), so it must be a name
 * that a URL carries unchanged: percent-encoded as one path segment, it comes out of URL parsing as
 * itself. Path normalisation rewrites `.` and `..` (and so would any other dot segment), which would
 * make such a reaction impossible to remove; the URL parser is the judge, not a list of our own.
 */
function isPathSafe(name: string): boolean {
  const segment = encodeURIComponent(name);
  const url = new URL(`http://host/r/${segment}`);
  return url.pathname === `/r/${segment}` && decodeURIComponent(url.pathname.slice(3)) === name;
}

/** The caller's reaction on a post: added once (`added` false when it was already there). */
export async function react(
  ctx: Context,
  ref: string,
  reaction: string,
): Promise<{ row: ReactionRow; added: boolean }> {
  if (!isPathSafe(reaction)) {
    throw invalid(
      'reaction',
      'is rewritten by URL path normalisation (such as . and ..), so it could not be removed',
    );
  }
  // If-Match names the post (the path's id): a reaction is made on the version of the post one read.
  const { row: post } = await loadVisiblePost(ctx, ref, true);
  return repo.addReaction(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    post_id: post.id,
    user_id: ctx.actor.id,
    reaction,
    created_at: now(),
  });
}

export async function unreact(ctx: Context, ref: string, reaction: string): Promise<void> {
  const { row: post } = await loadVisiblePost(ctx, ref, true);
  await repo.removeReaction(ctx.db, ctx.workspace.id, post.id, ctx.actor.id, reaction);
}

export function imagesOf(ctx: Context, postIds: string[]) {
  return repo.imagesOf(ctx.db, ctx.workspace.id, postIds);
}

export function reactionsOf(ctx: Context, postIds: string[]) {
  return repo.reactionsOf(ctx.db, ctx.workspace.id, postIds);
}
