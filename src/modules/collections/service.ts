// Collections group projects across teams. Every non-guest may create and rename them; they are seen
// by the whole workspace (guests included: a name reveals nothing a project does not).
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import { findById } from '../../db/by-id.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { listPage } from '../../db/listing.ts';
import { forbidden } from '../../http/errors.ts';
import { loadById } from '../../preconditions.ts';
import type { CollectionRow } from './repository.ts';
import * as repo from './repository.ts';
import type { CollectionUpsertBody } from './schema.ts';

export async function upsertCollection(
  ctx: Context,
  body: CollectionUpsertBody,
): Promise<{ row: CollectionRow; created: boolean }> {
  const at = now();
  if (body.id !== undefined) {
    const existing = await loadById(ctx, repo.COLLECTIONS, body.id.toLowerCase(), { forChange: true });
    if (ctx.actor.role === 'guest') throw forbidden('Guests cannot change collections');
    const changes = { name: body.name.trim(), updated_at: changedAt(existing.updated_at, at) };
    await repo.updateCollection(ctx.db, ctx.workspace.id, existing.id, changes);
    return { row: { ...existing, ...changes }, created: false };
  }
  if (ctx.actor.role === 'guest') throw forbidden('Guests cannot create collections');
  const row: CollectionRow = {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    name: body.name.trim(),
    created_by_id: ctx.actor.id,
    created_at: at,
    updated_at: at,
  };
  await repo.insertCollection(ctx.db, row);
  return { row, created: true };
}

export function listCollections(ctx: Context, page: PageRequest): Promise<Page<CollectionRow>> {
  return listPage(ctx, repo.COLLECTION_LIST, [], page, false);
}

export function findCollection(ctx: Pick<Context, 'db' | 'workspace'>, id: string) {
  return findById<CollectionRow>(ctx.db, repo.COLLECTIONS, ctx.workspace.id, id);
}

export function collectionsByIds(ctx: Pick<Context, 'db' | 'workspace'>, ids: string[]) {
  return repo.findCollections(ctx.db, ctx.workspace.id, [...new Set(ids)]);
}
