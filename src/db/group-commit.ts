// Group commit for SQLite: request transactions that are waiting for the one writer at the same moment
// share a transaction and its commit, so that one fsync (`synchronous = full`) makes many of them
// durable instead of one each. Each unit runs behind a savepoint of its own, so a unit that fails rolls
// back alone; each is answered only after the shared commit, so nothing is acknowledged that a crash
// could lose. The first unit of a group runs bare (no savepoint): a unit that is alone, which is every
// unit when requests come one at a time, costs the statements it always did.
//
// A group forms without waiting on purpose: the first unit starts on the next turn of the event loop
// (setImmediate), after the requests whose bytes arrived in the same turn have reached their
// transaction, and every unit that is queued when the one before it finishes joins. Under one
// connection a group is one unit and nothing is delayed; under load the queue fills while a group runs.
import { type Kysely, sql } from 'kysely';
import type { DB } from './types.ts';

/** What a unit leaves to do once the group has committed: its after-commit hooks. */
export interface UnitDone {
  result: unknown;
  afterCommit: () => void;
}

/** A unit of work: what one request's transaction does, on the group's transaction. */
export type Unit = (trx: Kysely<DB>) => Promise<UnitDone>;

interface Queued {
  run: Unit;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Units one group takes at most, and how long it keeps taking new ones: bounds a unit's wait. */
const MAX_UNITS = 64;
const MAX_GROUP_MS = 20;

export class GroupCommit {
  readonly #db: Kysely<DB>;
  readonly #queue: Queued[] = [];
  #scheduled = false;
  /** Groups committed and the units in them (the tests read them). */
  groups = 0;
  units = 0;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Queues `run` for the next group; resolves with its result once the group has committed. */
  run(run: Unit): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ run, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  /**
   * One group, then the next on a later turn of the event loop: a commit blocks the thread for its
   * fsync, and the requests that arrived meanwhile reach their transactions in that turn and join.
   */
  async #drain(): Promise<void> {
    try {
      await this.#group();
    } finally {
      if (this.#queue.length > 0) setImmediate(() => void this.#drain());
      else this.#scheduled = false;
    }
  }

  /** One transaction: the queued units, one after another, then one commit; then their answers. */
  async #group(): Promise<void> {
    let current = this.#queue.shift()!;
    const done: { unit: Queued; out: UnitDone }[] = [];
    // A later unit that failed is answered after the commit too: its answer (a 409, say) may rest on
    // what an earlier unit of the group wrote, which holds only if the group commits.
    const failed: { unit: Queued; error: unknown }[] = [];
    const started = Date.now();
    try {
      await this.#db.transaction().execute(async (trx) => {
        // The first unit bare: when it fails, the transaction rolls back with nothing else in it.
        done.push({ unit: current, out: await current.run(trx) });
        while (this.#queue.length > 0 && done.length < MAX_UNITS && Date.now() - started < MAX_GROUP_MS) {
          current = this.#queue.shift()!;
          const out = await inSavepoint(trx, current, failed);
          if (out) done.push({ unit: current, out });
        }
      });
    } catch (error) {
      // The transaction failed (the first unit, a unit that could not be rolled back alone, or the
      // commit itself): none of it is durable, so no unit of the group may be answered as if it were.
      const all = new Set([current, ...done.map((d) => d.unit), ...failed.map((f) => f.unit)]);
      for (const unit of all) unit.reject(error);
      return;
    }
    this.groups += 1;
    this.units += done.length;
    for (const { unit, out } of done) {
      out.afterCommit();
      unit.resolve(out.result);
    }
    for (const { unit, error } of failed) unit.reject(error);
  }
}

/**
 * A later unit behind a savepoint: when it fails, what it wrote is rolled back and it joins `failed`,
 * while the group goes on. When the rollback itself fails the transaction is gone, and that error ends
 * the whole group.
 */
async function inSavepoint(
  trx: Kysely<DB>,
  unit: Queued,
  failed: { unit: Queued; error: unknown }[],
): Promise<UnitDone | undefined> {
  await sql`savepoint unit`.execute(trx);
  let out: UnitDone;
  try {
    out = await unit.run(trx);
  } catch (error) {
    await sql`rollback to savepoint unit`.execute(trx);
    await sql`release savepoint unit`.execute(trx);
    failed.push({ unit, error });
    return undefined;
  }
  await sql`release savepoint unit`.execute(trx);
  return out;
}
