// POST /v1/tasks/batch: up to 100 create-or-update entries in one transaction, each behind its own
// savepoint, so an entry that fails is rolled back alone and reported, and the others commit together.
// What fails an entry never fails the batch: bad input, unknown ids, and errors no one expected (those
// are logged and reported as `internal` for that entry). Only the database's own request to retry
// (a deadlock or serialization failure on PostgreSQL) runs the whole batch again.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Auth, type Context, committing, contextOf, forgetRequestMemos, now } from '../../context.ts';
import { constraintOf, isConstraintViolation, isRetryable, retrying } from '../../db/errors.ts';
import type { Database } from '../../db/index.ts';
import { eventsCommitted } from '../../events/signal.ts';
import { AppError } from '../../http/errors.ts';
import { numberRef } from '../../http/ids.ts';
import { bodyValidator } from '../../http/validation.ts';
import { prepareRichText, richTextFields } from '../../text/render-pool.ts';
import { lockTasks } from './repository.ts';
import { TaskUpsertBody } from './schema.ts';
import { insertCreates, type PreparedCreate, prepareCreate, type SavedTask, upsertTask } from './service.ts';

const validateEntry = bodyValidator(TaskUpsertBody, '');
const ENTRY_RICH_TEXT = richTextFields(TaskUpsertBody);

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

/** Why an entry failed, as the single request would have said it (paths relative to the entry). */
function failureOf(error: unknown, log: FastifyBaseLogger): { error: string; code: string } {
  if (error instanceof AppError) {
    const first = error.at('').errors?.[0];
    return { error: first ? `${first.path} ${first.message}` : error.message, code: error.code };
  }
  if (isConstraintViolation(error)) {
    log.warn({ constraint: constraintOf(error) }, 'batch entry: constraint violation answered conflict');
    return { error: 'Changed by another request at the same time; retry', code: 'conflict' };
  }
  log.error({ err: error }, 'batch entry failed');
  return { error: 'Something went wrong on our side', code: 'internal' };
}

/**
 * Applies the entries in order and presents the saved tasks inside the same transaction. All entries
 * share one change time; new tasks get ids that ascend in submission order, so that among tasks
 * changed in the same millisecond, "newest first, then id" and change order agree (docs/search.md).
 *
 * On PostgreSQL the tasks the entries update are locked first, all at once and in id order, so two
 * batches touching the same tasks in different orders queue instead of deadlocking.
 *
 * Creates are checked one by one (reads only; a failed check is that entry's failure) and written
 * together: each run of consecutive creates is one savepoint and a fixed number of statements, not a
 * savepoint and several statements per entry. Should a run's writes fail all the same (a constraint
 * no check foresaw; a team's statuses and labels are locked by the checks, see groups/lookup.ts), the
 * run is written again entry by entry, to find which one failed.
 * Updates keep a savepoint each. A check that fails in a way nobody expected (not a 400-type error)
 * may have broken the transaction on PostgreSQL, so the batch then starts over entry by entry.
 */
export async function runBatch<T>(
  database: Database,
  auth: Auth,
  entries: object[],
  log: FastifyBaseLogger,
  present: (ctx: Context, saved: SavedTask[]) => Promise<T[]>,
): Promise<BatchResult<T>> {
  const at = now();
  const newIds = entries.map(() => randomUUID()).sort();
  // Validation normalizes (ids lower-cased) a copy: a failure echoes the entry as it was submitted.
  const checked = entries.map((entry) => {
    const input = structuredClone(entry);
    return { entry, input, errors: validateEntry(input) };
  });
  // Descriptions are converted in the render pool, all entries at once, before the transaction
  // begins (http/rich-text.ts does the same for single bodies).
  await Promise.all(
    checked.map(({ input, errors }) =>
      errors.length === 0 ? prepareRichText(input as Record<string, unknown>, ENTRY_RICH_TEXT) : null,
    ),
  );
  const refs = checked.flatMap(({ input, errors }) => {
    const id = (input as { id?: unknown }).id;
    const ref = errors.length === 0 && typeof id === 'string' ? numberRef(id) : null;
    return ref ? [ref] : [];
  });
  const attempt = async (grouped: boolean): Promise<BatchResult<T>> => {
    forgetRequestMemos(auth.actor);
    const trx = await database.db.startTransaction().execute();
    const ctx = contextOf(database, auth, trx);
    try {
      if (database.dialect === 'postgres') await lockTasks(trx, auth.workspace.id, refs);
      const saved: SavedTask[] = [];
      const failed: BatchFailure[] = [];
      // One entry behind its own savepoint: what it wrote is undone if it fails.
      const alone = async (i: number, write: (ctx: Context) => Promise<SavedTask>) => {
        const point = await trx.savepoint(`entry${i}`).execute();
        try {
          saved.push(await write(contextOf(database, auth, point)));
          await point.releaseSavepoint(`entry${i}`).execute();
        } catch (error) {
          if (isRetryable(error)) throw error;
          await point.rollbackToSavepoint(`entry${i}`).execute();
          // The rollback gave back the locks the entry took; memos read under them are forgotten too.
          forgetRequestMemos(auth.actor);
          failed.push({ task: checked[i]!.entry, ...failureOf(error, log), index: i });
        }
      };
      let run: { i: number; create: PreparedCreate }[] = [];
      const writeRun = async () => {
        if (run.length === 0) return;
        const creates = run;
        run = [];
        const point = await trx.savepoint('creates').execute();
        try {
          const rows = await insertCreates(
            contextOf(database, auth, point),
            creates.map((c) => c.create),
          );
          await point.releaseSavepoint('creates').execute();
          for (const row of rows) saved.push({ row, created: true });
        } catch (error) {
          if (isRetryable(error)) throw error;
          await point.rollbackToSavepoint('creates').execute();
          forgetRequestMemos(auth.actor);
          for (const { i, create } of creates)
            await alone(i, async (c) => ({ row: (await insertCreates(c, [create]))[0]!, created: true }));
        }
      };
      for (const [i, { entry, input, errors }] of checked.entries()) {
        const body = input as TaskUpsertBody;
        if (errors.length > 0) {
          const error = errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ');
          failed.push({ task: entry, error, code: 'validation_failed', index: i });
        } else if (grouped && body.id === undefined) {
          try {
            run.push({ i, create: await prepareCreate(ctx, body, at, newIds[i]!) });
          } catch (error) {
            if (!(error instanceof AppError)) throw new Ungrouped(error);
            failed.push({ task: entry, ...failureOf(error, log), index: i });
          }
        } else {
          await writeRun();
          await alone(i, (c) => upsertTask(c, body, at, newIds[i]));
        }
      }
      await writeRun();
      // Failures in submission order, as the entries were given.
      failed.sort((a, b) => a.index - b.index);
      const succeeded = await present(ctx, saved);
      await committing(trx, auth);
      await trx.commit().execute();
      // Committed: this process's webhook worker may have work (as inTransaction does).
      eventsCommitted();
      return { succeeded, failed };
    } catch (error) {
      await trx.rollback().execute();
      throw error;
    }
  };
  return retrying(async () => {
    try {
      return await attempt(true);
    } catch (error) {
      if (!(error instanceof Ungrouped)) throw error;
      if (isRetryable(error.cause)) throw error.cause;
      return attempt(false);
    }
  });
}

/** A create's check failed unexpectedly: the batch runs again with a savepoint per entry. */
class Ungrouped extends Error {
  constructor(cause: unknown) {
    super('batch check failed', { cause });
  }
}
