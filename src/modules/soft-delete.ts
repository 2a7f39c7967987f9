// Delete and restore of a soft-deletable resource, written once (docs/architecture.md, step 7): the
// row, loaded with its lock, changes only from the state the caller saw (db/state.ts setDeleted), and
// only a real change writes its event, so a racing delete finds it done and writes nothing.
import { type Context, changedAt } from '../context.ts';
import { type Deletable, setDeleted } from '../db/state.ts';
import { recordEvent } from '../events/outbox.ts';
import { AppError } from '../http/errors.ts';
import type { EventType } from './registry.ts';

interface DeletableRow {
  id: string;
  updated_at: string;
  deleted_at: string | null;
  deleted_by_id: string | null;
}

/** Soft-deletes `current` (loaded for change); deleting a deleted one changes nothing. */
export async function softDelete(
  ctx: Context,
  table: Deletable,
  current: DeletableRow,
  event: EventType,
): Promise<void> {
  if (current.deleted_at !== null) return;
  const at = changedAt(current.updated_at);
  if (!(await setDeleted(ctx.db, table, ctx.workspace.id, current.id, true, at, ctx.actor.id))) return;
  await recordEvent(ctx, event, current.id, at);
}

/** Restores `current` (loaded for change): 409 not_deleted unless it is deleted. Returns it restored. */
export async function restoreDeleted<Row extends DeletableRow>(
  ctx: Context,
  table: Deletable,
  current: Row,
  event: EventType,
  noun: string,
): Promise<Row> {
  const notDeleted = () => new AppError('not_deleted', `This ${noun} is not deleted`);
  if (current.deleted_at === null) throw notDeleted();
  const at = changedAt(current.updated_at);
  if (!(await setDeleted(ctx.db, table, ctx.workspace.id, current.id, false, at, ctx.actor.id)))
    throw notDeleted();
  await recordEvent(ctx, event, current.id, at);
  return { ...current, deleted_at: null, deleted_by_id: null, updated_at: at };
}
