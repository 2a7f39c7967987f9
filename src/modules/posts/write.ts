// Writing a post and its event. Projects calls it to post a status update, so it imports neither
// entities.ts nor another module's service: projects → posts/write has no way back to projects.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import { recordEvent } from '../../events/outbox.ts';
import { type DescriptionInput, fromInput } from '../../text/description.ts';
import type { PostRow } from './repository.ts';
import * as repo from './repository.ts';

export interface NewPost {
  entityType: 'task' | 'project' | 'document';
  entityId: string;
  content: DescriptionInput;
  action?: string;
  actionValue?: string;
  parentId?: string;
  at: string;
}

/** Writes a post (content sanitized as descriptions are) and its event; callers checked the entity. */
export async function createPost(ctx: Context, input: NewPost): Promise<PostRow> {
  const row = await repo.insertPost(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    public_id: String(await nextValues(ctx.db, ctx.workspace.id, 'post')),
    content: fromInput(input.content, 'content').markdown,
    action: input.action ?? null,
    action_value: input.actionValue ?? null,
    entity_type: input.entityType,
    entity_id: input.entityId,
    parent_id: input.parentId ?? null,
    owner_id: ctx.actor.id,
    is_resolved: false,
    created_at: input.at,
    updated_at: input.at,
  });
  await recordEvent(ctx, 'post.created', row.id, input.at);
  return row;
}
