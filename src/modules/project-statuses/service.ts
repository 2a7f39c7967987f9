import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Context, changedAt, now } from '../../context.ts';
import { findById } from '../../db/by-id.ts';
import { lockDerived } from '../../db/locks.ts';
import type { DB } from '../../db/types.ts';
import { forbidden, invalid } from '../../http/errors.ts';
import { loadById } from '../../preconditions.ts';
import { isWorkspaceAdmin } from '../users/policy.ts';
import type { ProjectStatusRow } from './repository.ts';
import * as repo from './repository.ts';
import type { ProjectStatusUpsertBody } from './schema.ts';

const DEFAULTS = [
  { name: 'Planned', color: '#95a2b3', icon: 'planned' },
  { name: 'In Progress', color: '#f2c94c', icon: 'in_progress' },
  { name: 'Paused', color: '#eb5757', icon: 'paused' },
  { name: 'Completed', color: '#5e6ad2', icon: 'completed' },
  { name: 'Canceled', color: '#95a2b3', icon: 'canceled' },
];

/** The five workspace-wide statuses every new workspace starts with (docs/decisions.md §3). */
export async function createDefaults(db: Kysely<DB>, workspaceId: string): Promise<void> {
  const at = now();
  await repo.insertStatuses(
    db,
    DEFAULTS.map((d, position) => ({
      workspace_id: workspaceId,
      id: randomUUID(),
      ...d,
      position,
      created_at: at,
      updated_at: at,
    })),
  );
}

export function listStatuses(ctx: Context): Promise<ProjectStatusRow[]> {
  return repo.listStatuses(ctx.db, ctx.workspace.id);
}

export async function findStatus(ctx: Pick<Context, 'db' | 'workspace'>, id: string) {
  return findById<ProjectStatusRow>(ctx.db, repo.STATUSES, ctx.workspace.id, id);
}

export function statusesByIds(ctx: Pick<Context, 'db' | 'workspace'>, ids: string[]) {
  return repo.findStatuses(ctx.db, ctx.workspace.id, [...new Set(ids)]);
}

export async function upsertStatus(
  ctx: Context,
  body: ProjectStatusUpsertBody,
): Promise<{ row: ProjectStatusRow; created: boolean }> {
  const at = now();
  if (body.id !== undefined) {
    const existing = await loadById(ctx, repo.STATUSES, body.id, { forChange: true });
    if (!isWorkspaceAdmin(ctx.actor)) throw forbidden('Only owners and admins can change project statuses');
    const changes = {
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(body.color !== undefined ? { color: body.color } : {}),
      ...(body.icon !== undefined ? { icon: body.icon } : {}),
      ...(body.position !== undefined ? { position: body.position } : {}),
      updated_at: changedAt(existing.updated_at, at),
    };
    await repo.updateStatus(ctx.db, ctx.workspace.id, body.id, changes);
    return { row: { ...existing, ...changes }, created: false };
  }
  if (!isWorkspaceAdmin(ctx.actor)) throw forbidden('Only owners and admins can change project statuses');
  if (body.name === undefined) throw invalid('name', 'is required when creating');
  // Two statuses made at once would both be put after the same last one (db/locks.ts).
  if (body.position === undefined) await lockDerived(ctx, 'project_statuses.position');
  const row: ProjectStatusRow = {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    name: body.name.trim(),
    color: body.color ?? '#95a2b3',
    icon: body.icon ?? 'circle',
    position: body.position ?? (await repo.nextPosition(ctx.db, ctx.workspace.id)),
    created_at: at,
    updated_at: at,
  };
  await repo.insertStatuses(ctx.db, [row]);
  return { row, created: true };
}
