// Posts: comments and status updates on an entity. This issue stores them (a project status update
// writes one); the posts endpoints come with their own issue and read this same table.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import { nextValues } from '../../db/counters.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { PostRow } from './repository.ts';
import * as repo from './repository.ts';

export interface NewPost {
  entityType: 'task' | 'project' | 'document';
  entityId: string;
  content: string;
  action?: string;
  actionValue?: string;
  parentId?: string;
  at: string;
}

export async function createPost(ctx: Context, input: NewPost): Promise<PostRow> {
  const row = await repo.insertPost(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    public_id: String(await nextValues(ctx.db, ctx.workspace.id, 'post')),
    content: input.content,
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
