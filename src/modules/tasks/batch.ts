// POST /v1/tasks/batch: up to 100 create-or-update entries in one transaction, each behind its own
// savepoint, so an entry that fails is rolled back alone and reported, and the others commit together.
// What fails an entry never fails the batch: bad input, unknown ids, and errors no one expected (those
// are logged and reported as `internal` for that entry). Only the database's own request to retry
// (a deadlock or serialization failure on PostgreSQL) runs the whole batch again.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type Auth, type Context, inSavepoint, inTransaction, now } from '../../context.ts';
import { constraintOf, isConstraintViolation, isRetryable } from '../../db/errors.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { numberRef } from '../../http/ids.ts';
import { bodyValidator } from '../../http/validation.ts';
import { prepareRichText, richTextFields } from '../../text/render-pool.ts';
import { COUNTER_QUEUE } from './counts.ts';
import { lockTasks } from './repository.ts';
import { TaskUpsertBody } from './schema.ts';
import { insertCreates, type PreparedCreate, prepareCreate, type SavedTask, upsertTask } from './service.ts';

const validateEntry = bodyValidator(TaskUpsertBody, '');
const ENTRY_RICH_TEXT = richTextFields(TaskUpsertBody);

interface BatchFailure {
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
  const checked = await checkEntries(entries);
  const refs = updatedRefs(checked);
  // A batch that creates takes the workspace's task counter, and queues with the other creates.
  const creates = checked.some(({ input, errors }) => errors.length === 0 && !('id' in input));
  // The route refuses If-Match, so inTransaction has none to settle; it marks the Idempotency-Key.
  const attempt = (grouped: boolean) =>
    inTransaction(
      database,
      auth,
      async (ctx) => {
        if (ctx.dialect === 'postgres') await lockTasks(ctx.db, auth.workspace.id, refs);
        const writer = new EntryWriter(ctx, checked, log, at, newIds);
        await writer.apply(grouped);
        return { succeeded: await present(ctx, writer.saved), failed: writer.failed };
      },
      { queue: creates ? COUNTER_QUEUE : undefined },
    );
  try {
    return await attempt(true);
  } catch (error) {
    if (!(error instanceof Ungrouped)) throw error;
    return attempt(false);
  }
}

interface CheckedEntry {
  /** As submitted, for a failure to echo. */
  entry: object;
  /** The validated (normalized: ids lower-cased) copy that is written. */
  input: object;
  errors: ReturnType<typeof validateEntry>;
}

/** Each entry validated, and the valid ones' descriptions converted, before the transaction begins. */
async function checkEntries(entries: object[]): Promise<CheckedEntry[]> {
  const checked = entries.map((entry) => {
    const input = structuredClone(entry);
    return { entry, input, errors: validateEntry(input) };
  });
  // In the render pool, all entries at once (http/rich-text.ts does the same for single bodies).
  await Promise.all(
    checked.map(({ input, errors }) =>
      errors.length === 0 ? prepareRichText(input as Record<string, unknown>, ENTRY_RICH_TEXT) : null,
    ),
  );
  return checked;
}

/** The tasks the valid entries name, to be locked up front. */
function updatedRefs(checked: CheckedEntry[]): ({ id: string } | { publicId: number })[] {
  return checked.flatMap(({ input, errors }) => {
    const id = (input as { id?: unknown }).id;
    const ref = errors.length === 0 && typeof id === 'string' ? numberRef(id) : null;
    return ref ? [ref] : [];
  });
}

/** The ids new tasks get, in submission order. */
type NewId = ReturnType<typeof randomUUID>;

/** One attempt's writes: what was saved and what failed, entry by entry. */
class EntryWriter {
  readonly saved: SavedTask[] = [];
  readonly failed: BatchFailure[] = [];
  readonly #ctx: Context;
  readonly #checked: CheckedEntry[];
  readonly #log: FastifyBaseLogger;
  readonly #at: string;
  readonly #newIds: NewId[];
  /** Creates checked and waiting to be written together. */
  #run: { i: number; create: PreparedCreate }[] = [];

  constructor(ctx: Context, checked: CheckedEntry[], log: FastifyBaseLogger, at: string, newIds: NewId[]) {
    this.#ctx = ctx;
    this.#checked = checked;
    this.#log = log;
    this.#at = at;
    this.#newIds = newIds;
  }

  /** Grouped: runs of consecutive creates are written together; otherwise every entry alone. */
  async apply(grouped: boolean): Promise<void> {
    for (const [i, { entry, input, errors }] of this.#checked.entries()) {
      const body = input as TaskUpsertBody;
      if (errors.length > 0) {
        const error = errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ');
        this.failed.push({ task: entry, error, code: 'validation_failed', index: i });
      } else if (grouped && body.id === undefined) {
        await this.#check(i, body);
      } else {
        await this.#writeRun();
        await this.#alone(i, (ctx) => upsertTask(ctx, body, this.#at, this.#newIds[i]));
      }
    }
    await this.#writeRun();
    // Failures in submission order, as the entries were given.
    this.failed.sort((a, b) => a.index - b.index);
  }

  /** A create's checks (reads only): it joins the run, or fails as the entry's failure. */
  async #check(i: number, body: TaskUpsertBody): Promise<void> {
    try {
      this.#run.push({ i, create: await prepareCreate(this.#ctx, body, this.#at, this.#newIds[i]!) });
    } catch (error) {
      if (isRetryable(error)) throw error;
      if (!(error instanceof AppError)) throw new Ungrouped(error);
      this.#fail(i, error);
    }
  }

  /** The run of creates behind one savepoint; should it fail, entry by entry to find which one. */
  async #writeRun(): Promise<void> {
    if (this.#run.length === 0) return;
    const creates = this.#run;
    this.#run = [];
    try {
      const rows = await inSavepoint(this.#ctx, (ctx) =>
        insertCreates(
          ctx,
          creates.map((c) => c.create),
        ),
      );
      for (const row of rows) this.saved.push({ row, created: true });
    } catch (error) {
      if (isRetryable(error)) throw error;
      for (const { i, create } of creates)
        await this.#alone(i, async (ctx) => ({
          row: (await insertCreates(ctx, [create]))[0]!,
          created: true,
        }));
    }
  }

  /** One entry behind its own savepoint: what it wrote is undone if it fails. */
  async #alone(i: number, write: (ctx: Context) => Promise<SavedTask>): Promise<void> {
    try {
      this.saved.push(await inSavepoint(this.#ctx, write));
    } catch (error) {
      if (isRetryable(error)) throw error;
      this.#fail(i, error);
    }
  }

  #fail(i: number, error: unknown): void {
    this.failed.push({ task: this.#checked[i]!.entry, ...failureOf(error, this.#log), index: i });
  }
}

/** A create's check failed unexpectedly: the batch runs again with a savepoint per entry. */
class Ungrouped extends Error {
  constructor(cause: unknown) {
    super('batch check failed', { cause });
  }
}
