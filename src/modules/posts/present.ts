// Posts to API objects. Posts presented together are on entities the caller has already been shown to
// see (one entity for a list, a thread or one post; many for a page of events); images, reactions and
// owners of the page are loaded in one query each.
import type { Context } from '../../context.ts';
import { groupBy } from '../../db/rows.ts';
import * as users from '../users/service.ts';
import { type Entity, entityPath } from './entities.ts';
import type { PostRow, ReactionRow } from './repository.ts';
import type { Post, PostExpansion, Reaction } from './schema.ts';
import { imagesOf, reactionsOf } from './service.ts';

export function presentReaction(r: ReactionRow): Reaction {
  return { id: r.id, postId: r.post_id, userId: r.user_id, reaction: r.reaction };
}

export function presentPosts(
  ctx: Context,
  entity: Entity,
  rows: PostRow[],
  expand: Set<PostExpansion>,
  publicUrl: string,
): Promise<Post[]> {
  return presentPostsOn(
    ctx,
    rows.map((row) => ({ row, entity })),
    expand,
    publicUrl,
  );
}

/** Posts each with its own entity (the event renderer's page, on many entities), loaded together. */
export async function presentPostsOn(
  ctx: Context,
  posts: { row: PostRow; entity: Entity }[],
  expand: Set<PostExpansion>,
  publicUrl: string,
): Promise<Post[]> {
  const rows = posts.map((p) => p.row);
  const ids = rows.map((r) => r.id);
  const [images, reactions, owners] = await Promise.all([
    expand.has('images') ? imagesOf(ctx, ids).then((list) => groupBy(list, (i) => i.post_id)) : undefined,
    expand.has('reactions')
      ? reactionsOf(ctx, ids).then((list) => groupBy(list, (r) => r.post_id))
      : undefined,
    expand.has('owner')
      ? users
          .usersByIds(
            ctx,
            rows.map((r) => r.owner_id),
          )
          .then((list) => new Map(list.map((u) => [u.id, u])))
      : undefined,
  ]);
  return posts.map(({ row, entity }) => {
    const out: Post = {
      id: row.id,
      publicId: row.public_id,
      content: row.content,
      action: row.action,
      actionValue: row.action_value,
      entityId: row.entity_id,
      entityType: entity.type,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ownerId: row.owner_id,
      parentId: row.parent_id,
      isResolved: Boolean(row.is_resolved),
      entityTitle: entity.title,
      entityUrl: `${publicUrl}${entityPath(entity)}`,
      postUrl: `${publicUrl}/v1/posts/${row.id}`,
    };
    if (images) {
      out.images = (images.get(row.id) ?? []).map((i) => ({
        id: i.id,
        key: i.key,
        url: i.url,
        postId: i.post_id,
        width: i.width,
        height: i.height,
        aspectRatio: Math.round((i.width / i.height) * 10_000) / 10_000,
      }));
    }
    if (reactions) out.reactions = (reactions.get(row.id) ?? []).map(presentReaction);
    if (owners) {
      const u = owners.get(row.owner_id);
      out.owner = u ? { id: u.id, name: u.name, email: u.email } : null;
    }
    return out;
  });
}
