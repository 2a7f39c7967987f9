// Posts to API objects. Every post presented together is on one entity (a list, a thread, one post),
// which the caller has already been shown to see; images, reactions and owners of the page are loaded
// in one query each.
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

export async function presentPosts(
  ctx: Context,
  entity: Entity,
  rows: PostRow[],
  expand: Set<PostExpansion>,
  publicUrl: string,
): Promise<Post[]> {
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
  const entityUrl = `${publicUrl}${entityPath(entity)}`;
  return rows.map((row) => {
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
      entityUrl,
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
