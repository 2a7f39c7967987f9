// Inserting many generated tasks at once (`cairn seed`): the same rows and index entries as
// upsertTask, written a few hundred per statement, and without events (seeded data is not news).
// The caller has already checked every reference.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.ts';
import { addToCounter, nextValues } from '../../db/counters.ts';
import { reserveSeqs } from '../../db/sequences.ts';
import type { Visibility } from '../../db/types.ts';
import { moveCounts } from './counts.ts';
import type { TaskRow } from './repository.ts';
import * as repo from './repository.ts';
import { DELETED_COUNTER, TASK_COUNTER } from './service.ts';

export interface GeneratedTask {
  name: string;
  descriptionHtml: string;
  descriptionMarkdown: string;
  groupId: string;
  statusId: string;
  completed: boolean;
  projectId: string | null;
  assignedToId: string | null;
  createdById: string;
  visibility: Visibility;
  priority: boolean;
  dueDate: string | null;
  labelIds: string[];
  at: string;
  deleted: boolean;
}

const CHUNK = 400;

/** Inserts the tasks in order (later ones count as changed later), a chunk per statement. */
export async function insertGenerated(ctx: Context, tasks: GeneratedTask[]): Promise<void> {
  const firstPublicId = await nextValues(ctx.db, ctx.workspace.id, TASK_COUNTER, tasks.length);
  await addToCounter(ctx.db, ctx.workspace.id, DELETED_COUNTER, tasks.filter((t) => t.deleted).length);
  const seqs = await reserveSeqs(ctx.db, ctx.dialect, 'tasks', tasks.length);
  for (let start = 0; start < tasks.length; start += CHUNK) {
    const rows: TaskRow[] = tasks.slice(start, start + CHUNK).map((t, i) => ({
      seq: seqs[start + i]!,
      workspace_id: ctx.workspace.id,
      id: randomUUID(),
      public_id: firstPublicId + start + i,
      name: t.name,
      description_html: t.descriptionHtml,
      description_markdown: t.descriptionMarkdown,
      due_date: t.dueDate,
      completed_at: t.completed ? t.at : null,
      priority: t.priority,
      visibility: t.visibility,
      created_by_id: t.createdById,
      project_id: t.projectId,
      group_id: t.groupId,
      status_id: t.statusId,
      assigned_to_id: t.assignedToId,
      repeat_id: null,
      created_at: t.at,
      updated_at: t.at,
      deleted_at: t.deleted ? t.at : null,
    }));
    await repo.insertSeeded(
      ctx.db,
      rows.map((row) => ({ ...row, index: repo.TASK_INDEX.columns(ctx, row) })),
    );
    await repo.insertLabelLinks(
      ctx.db,
      rows.flatMap((row, i) =>
        tasks[start + i]!.labelIds.map((label_id) => ({
          workspace_id: ctx.workspace.id,
          task_id: row.id,
          label_id,
        })),
      ),
    );
    await repo.TASK_INDEX.writeNew(ctx, rows);
    await moveCounts(
      ctx,
      rows.map((after) => ({ before: null, after })),
    );
  }
}
