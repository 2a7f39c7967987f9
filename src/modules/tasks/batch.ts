// POST /v1/tasks/batch: up to 100 create-or-update entries in one transaction, each behind its own
// savepoint, so an entry that fails is rolled back alone and reported, and the others commit together.
import { randomUUID } from 'node:crypto';
import { type Auth, type Context, contextOf, now } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { bodyValidator } from '../../http/validation.ts';
import { TaskUpsertBody } from './schema.ts';
import { type SavedTask, upsertTask } from './service.ts';

const validateEntry = bodyValidator(TaskUpsertBody, '');

export interface BatchFailure {
  task: unknown;
  error: string;
  code: string;
  /** The entry's position in the submitted array. */
  index: number;
}

export interface BatchResult<T> {
  succeeded: T[];
  failed: BatchFailure[];
}

/**
 * Applies the entries in order and presents the saved tasks inside the same transaction. All entries
 * share one change time; new tasks get ids that ascend in submission order, so that among tasks
 * changed in the same millisecond, "newest first, then id" and change order agree (docs/search.md).
 */
export async function runBatch<T>(
  database: Database,
  auth: Auth,
  entries: object[],
  present: (ctx: Context, saved: SavedTask[]) => Promise<T[]>,
): Promise<BatchResult<T>> {
  const at = now();
  const newIds = entries.map(() => randomUUID()).sort();
  const trx = await database.db.startTransaction().execute();
  try {
    const saved: SavedTask[] = [];
    const failed: BatchFailure[] = [];
    for (const [i, entry] of entries.entries()) {
      const errors = validateEntry(entry);
      if (errors.length > 0) {
        failed.push({
          task: entry,
          error: errors.map((e) => `${e.path || '/'} ${e.message}`).join('; '),
          code: 'validation_failed',
          index: i,
        });
        continue;
      }
      const point = await trx.savepoint(`entry${i}`).execute();
      try {
        saved.push(
          await upsertTask(contextOf(database, auth, point), entry as TaskUpsertBody, at, newIds[i]),
        );
        await point.releaseSavepoint(`entry${i}`).execute();
      } catch (error) {
        await point.rollbackToSavepoint(`entry${i}`).execute();
        if (error instanceof AppError) {
          const first = error.at('').errors?.[0];
          failed.push({
            task: entry,
            error: first ? `${first.path} ${first.message}` : error.message,
            code: error.code,
            index: i,
          });
        } else if (isUniqueViolation(error)) {
          failed.push({
            task: entry,
            error: 'Changed by another request at the same time; retry',
            code: 'conflict',
            index: i,
          });
        } else throw error;
      }
    }
    const succeeded = await present(contextOf(database, auth, trx), saved);
    await trx.commit().execute();
    return { succeeded, failed };
  } catch (error) {
    await trx.rollback().execute();
    throw error;
  }
}
