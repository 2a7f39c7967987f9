// Group commit: transactions that wait for the same lock at the same moment share one transaction and
// its commit. On SQLite that lock is the one writer's, and one fsync (`synchronous = full`) then makes
// many changes durable instead of one each; on PostgreSQL it is a hot row that every create of a
// workspace takes and holds to its commit (the `task` counter), and one commit then releases it for
// many creates instead of one each. Each unit runs behind a savepoint of its own, so a unit that fails
// rolls back alone; each is answered only after the shared commit, so nothing is acknowledged that a
// crash could lose. The first unit of a group runs bare (no savepoint): a unit that is alone, which is
// every unit when requests come one at a time, costs the statements it always did.
//
// A group forms without waiting on purpose: the first unit starts on the next turn of the event loop
// (setImmediate), after the requests whose bytes arrived in the same turn have reached their
// transaction, and every unit that is queued when the one before it finishes joins. Under one
// connection a group is one unit and nothing is delayed; under load the queue fills while a group runs.
//
// On PostgreSQL every statement is a round trip on the group's one connection, which every unit of the
// group waits on in turn. So a unit's savepoint is released together with the next unit's start (one
// text of two statements) instead of in a round trip of its own; only the group's last is released
// alone.
import { type Kysely, sql } from 'kysely';
import { isRetryable } from './errors.ts';
import type { DB } from './types.ts';

/** What a unit leaves to do once the group has committed: its after-commit hooks. */
interface UnitDone {
  result: unknown;
  afterCommit: () => void;
}

/** A unit of work: what one request's transaction does, on the group's transaction. */
export type Unit = (trx: Kysely<DB>) => Promise<UnitDone>;

interface Queued {
  run: Unit;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Times the unit was rolled back for a deadlock or serialization failure and queued again. */
  retries: number;
}

/** Units one group takes at most: with `maxMs`, what bounds a unit's wait for the group's commit. */
const MAX_UNITS = 64;
/** As errors.ts `retrying`: a unit the database keeps choosing as a deadlock's victim gives up. */
const MAX_RETRIES = 4;

/** Groups committed and the units in them, per database (the tests read them). */
export interface GroupStats {
  groups: number;
  units: number;
}

export class GroupCommit {
  readonly #db: Kysely<DB>;
  readonly #stats: GroupStats;
  readonly #maxMs: number;
  readonly #onIdle: () => void;
  readonly #joinStatements: boolean;
  readonly #queue: Queued[] = [];
  #scheduled = false;

  /**
   * `maxMs`: how long after its begin a group still takes new units. `joinStatements`: send a unit's
   * release with the next one's savepoint, as one text (PostgreSQL, where each text is a round trip;
   * SQLite's driver prepares one statement per text).
   */
  constructor(
    db: Kysely<DB>,
    stats: GroupStats,
    options: { maxMs: number; joinStatements: boolean },
    onIdle: () => void,
  ) {
    this.#db = db;
    this.#stats = stats;
    this.#maxMs = options.maxMs;
    this.#joinStatements = options.joinStatements;
    this.#onIdle = onIdle;
  }

  /** Queues `run` for the next group; resolves with its result once the group has committed. */
  run(run: Unit): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ run, resolve, reject, retries: 0 });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => void this.#drain());
  }

  /**
   * One group, then the next on a later turn of the event loop: a commit blocks the thread for its
   * fsync (SQLite), and the requests that arrived meanwhile reach their transactions in that turn.
   */
  async #drain(): Promise<void> {
    try {
      await this.#group();
    } finally {
      this.#scheduled = false;
      if (this.#queue.length > 0) this.#schedule();
      else this.#onIdle();
    }
  }

  /** One transaction: the queued units, one after another, then one commit; then their answers. */
  async #group(): Promise<void> {
    const first = this.#queue.shift()!;
    // The unit whose run is under way, if any: what a failure of the transaction now interrupts.
    let running: Queued | undefined = first;
    const done: { unit: Queued; out: UnitDone }[] = [];
    // A later unit that failed is answered after the commit too: its answer (a 409, say) may rest on
    // what an earlier unit of the group wrote, which holds only if the group commits.
    const failed: { unit: Queued; error: unknown }[] = [];
    const again: Queued[] = [];
    try {
      await this.#db.transaction().execute(async (trx) => {
        // Counted from the begin: waiting for a connection (PostgreSQL) is not the group's time.
        const started = Date.now();
        // The first unit bare: when it fails, the transaction rolls back with nothing else in it.
        done.push({ unit: first, out: await first.run(trx) });
        running = undefined;
        const savepoints = new Savepoints(trx, this.#joinStatements);
        while (this.#queue.length > 0 && done.length < MAX_UNITS && Date.now() - started < this.#maxMs) {
          // Started before the unit leaves the queue: when the start fails, the transaction is gone
          // (an earlier unit ended it) and the unit, which never ran, waits for the next group.
          await savepoints.start();
          running = this.#queue.shift()!;
          const out = await inSavepoint(savepoints, running, failed, again);
          if (out) done.push({ unit: running, out });
          running = undefined;
        }
        // The last one released on its own: a release fails where a unit ended or aborted the
        // transaction, which the commit does not always say (after an ended one it only warns).
        await savepoints.finish();
      });
    } catch (error) {
      // The transaction failed (the first unit, a unit that could not be rolled back alone, or the
      // commit itself): none of it is durable, so no unit of the group may be answered as if it were.
      // The first unit alone, failed for a deadlock, is run again (PostgreSQL); so are the units
      // already queued again, which are not answered here.
      const lone = done.length === 0 && failed.length === 0;
      if (lone && running === first && retrying(first, error)) again.push(first);
      else {
        const ran = [...done.map((d) => d.unit), ...failed.map((f) => f.unit)];
        for (const unit of new Set(running ? [running, ...ran] : ran)) unit.reject(error);
      }
      this.#queue.unshift(...again);
      return;
    }
    this.#queue.unshift(...again);
    this.#stats.groups += 1;
    this.#stats.units += done.length;
    for (const { unit, out } of done) {
      // Hooks must not throw; one that does fails its own unit's answer (as without a group), not
      // the answers of the others.
      try {
        out.afterCommit();
        unit.resolve(out.result);
      } catch (error) {
        unit.reject(error);
      }
    }
    for (const { unit, error } of failed) unit.reject(error);
  }
}

/** Whether a unit rolled back for `error` is queued again (counted) rather than answered with it. */
function retrying(unit: Queued, error: unknown): boolean {
  if (!isRetryable(error) || unit.retries >= MAX_RETRIES) return false;
  unit.retries += 1;
  return true;
}

/**
 * A later unit behind a savepoint (started): when it fails, what it wrote is rolled back and it joins `failed`
 * (or, chosen as a deadlock's victim, `again`, for the next group), while the group goes on. When the
 * rollback itself fails the transaction is gone, and that error ends the whole group.
 */
async function inSavepoint(
  savepoints: Savepoints,
  unit: Queued,
  failed: { unit: Queued; error: unknown }[],
  again: Queued[],
): Promise<UnitDone | undefined> {
  let out: UnitDone;
  try {
    out = await unit.run(savepoints.trx);
  } catch (error) {
    await savepoints.rollBack();
    if (retrying(unit, error)) again.push(unit);
    else failed.push({ unit, error });
    return undefined;
  }
  await savepoints.keep();
  return out;
}

/**
 * The units' savepoint, one at a time. Joined, a kept unit's release waits to go with the next start
 * (or `finish`); a rolled-back one is released with its rollback.
 */
class Savepoints {
  readonly trx: Kysely<DB>;
  readonly #joined: boolean;
  #open = false;

  constructor(trx: Kysely<DB>, joined: boolean) {
    this.trx = trx;
    this.#joined = joined;
  }

  async start(): Promise<void> {
    if (this.#open) await sql`release savepoint unit; savepoint unit`.execute(this.trx);
    else await sql`savepoint unit`.execute(this.trx);
    this.#open = true;
  }

  /** A unit's savepoint kept: released now, or joined, with the next start or `finish`. */
  async keep(): Promise<void> {
    if (!this.#joined) await this.finish();
  }

  async finish(): Promise<void> {
    if (this.#open) await sql`release savepoint unit`.execute(this.trx);
    this.#open = false;
  }

  async rollBack(): Promise<void> {
    if (this.#joined) await sql`rollback to savepoint unit; release savepoint unit`.execute(this.trx);
    else {
      await sql`rollback to savepoint unit`.execute(this.trx);
      await sql`release savepoint unit`.execute(this.trx);
    }
    this.#open = false;
  }
}
