// Per-workspace counters: public ids, and the task counts behind cheap totals. One upsert (INSERT … ON
// CONFLICT DO UPDATE, RETURNING the value) makes or moves a counter atomically on both databases (a row
// lock on PostgreSQL; SQLite transactions are serialized), so concurrent creates never share a number. An increment that rolls back with its transaction gives the number back, so no
// two committed rows ever hold the same one.
import type { Kysely, QueryCreator } from 'kysely';
import type { DB } from './types.ts';

/** Adds `delta` to a counter (made at 0 on first use) and returns its new value. */
export async function addToCounter(
  db: Kysely<DB>,
  workspaceId: string,
  name: string,
  delta: number,
): Promise<number> {
  const row = await upsert(db, [{ workspace_id: workspaceId, name, value: delta }])
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** Reserves `count` consecutive values and returns the first. */
export async function nextValues(
  db: Kysely<DB>,
  workspaceId: string,
  name: string,
  count = 1,
): Promise<number> {
  return (await addToCounter(db, workspaceId, name, count)) - count + 1;
}

/** A counter's value (0 before its first use). */
export async function counterValue(db: Kysely<DB>, workspaceId: string, name: string): Promise<number> {
  const row = await db
    .selectFrom('counters')
    .select('value')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** The sum of several counters (0 for none, and for those never used). */
export async function counterSum(db: Kysely<DB>, workspaceId: string, names: string[]): Promise<number> {
  if (names.length === 0) return 0;
  const row = await db
    .selectFrom('counters')
    .select((eb) => eb.fn.sum<number>('value').as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('name', 'in', names)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Adds each delta to its counter (made on first use) in one statement, and returns the counters' new
 * values by name. Rows are written in name order, so two transactions moving the same counters lock
 * them in the same order (PostgreSQL).
 */
export async function addToCounters(
  db: Kysely<DB>,
  workspaceId: string,
  deltas: Map<string, number>,
): Promise<Map<string, number>> {
  const upsert = countersUpsert(db, workspaceId, deltas);
  if (!upsert) return new Map();
  const values = await upsert.execute();
  return new Map(values.map((v) => [v.name, Number(v.value)]));
}

/**
 * addToCounters' statement, not yet run, returning each moved counter's name and new value: for a
 * statement that writes more than the counters (a data-modifying CTE on PostgreSQL,
 * tasks/repository.ts insertTasksWith). Undefined when no delta moves a counter.
 */
export function countersUpsert(db: QueryCreator<DB>, workspaceId: string, deltas: Map<string, number>) {
  const rows = [...deltas]
    .filter(([, delta]) => delta !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => ({ workspace_id: workspaceId, name, value }));
  if (rows.length === 0) return undefined;
  return upsert(db, rows).returning(['name', 'value']);
}

export type CountersUpsert = NonNullable<ReturnType<typeof countersUpsert>>;

/** Inserts the counters, or adds to those that exist: one statement, atomic on both databases. */
function upsert(db: QueryCreator<DB>, rows: { workspace_id: string; name: string; value: number }[]) {
  return db
    .insertInto('counters')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'name'])
        .doUpdateSet((eb) => ({ value: eb('counters.value', '+', eb.ref('excluded.value')) })),
    );
}
