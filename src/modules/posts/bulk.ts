// Inserting many generated posts on one entity (`cairn seed`: a busy task's thread for the bench),
// a few hundred per statement, without events. `replyTo` is the position of an earlier post.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';

export interface GeneratedPost {
  content: string;
  ownerId: string;
  at: string;
  replyTo?: number;
}

const CHUNK = 400;

export async function insertGeneratedPosts(
  ctx: Context,
  entity: { type: 'task' | 'project' | 'document'; id: string },
  posts: GeneratedPost[],
): Promise<void> {
  const firstPublicId = await nextValues(ctx.db, ctx.workspace.id, 'post', posts.length);
  const ids = posts.map(() => randomUUID());
  for (let start = 0; start < posts.length; start += CHUNK) {
    await ctx.db
      .insertInto('posts')
      .values(
        posts.slice(start, start + CHUNK).map((p, i) => ({
          workspace_id: ctx.workspace.id,
          id: ids[start + i]!,
          public_id: String(firstPublicId + start + i),
          content: p.content,
          action: null,
          action_value: null,
          entity_type: entity.type,
          entity_id: entity.id,
          parent_id: p.replyTo === undefined ? null : ids[p.replyTo]!,
          owner_id: p.ownerId,
          is_resolved: false,
          created_at: p.at,
          updated_at: p.at,
        })),
      )
      .execute();
  }
}
