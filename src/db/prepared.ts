// Hot queries built once and bound per call. Building a query through Kysely (its builders, frozen
// operation nodes, the compiler) costs about a fifth of a simple GET's CPU, paid again on every
// request for the same text. A prepared query is built the first time with markers in place of its
// arguments, compiled, and kept; each later call only binds its arguments to the compiled text.
// Only for queries whose text does not depend on their arguments (no `in` lists, no optional parts:
// pass a list as one JSON argument instead, as tasks/expansions.ts does).
import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { DB } from './types.ts';

const MARKER = '\u0000prepared-argument:';

/** An argument: a value, or on PostgreSQL an array (pg writes it as an array literal). */
type Argument = string | number | string[];

/**
 * `build(db, ...args)` as a function of (db, ...args) that compiles once per dialect and binds the
 * arguments on each call. The compiled text is kept per dialect adapter, which a transaction's Kysely
 * instance shares with the database's (the app adds no plugins that would make them differ), so a
 * query run inside transactions is compiled once too.
 */
export function prepared<Args extends Argument[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<object, CompiledQuery<Row>>();
  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      const markers = args.map((_, i) => `${MARKER}${i}`) as Args;
      query = build(db, ...markers).compile();
      compiled.set(adapter, query);
    }
    const parameters = query.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(MARKER)
        ? args[Number(value.slice(MARKER.length))]
        : value,
    );
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/** prepared() for a statement written with Kysely's `sql` tag (what its builders cannot express). */
export function preparedSql<Args extends Argument[], Row>(
  build: (...args: Args) => RawBuilder<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  return prepared((db: Kysely<DB>, ...args: Args) => ({ compile: () => build(...args).compile(db) }));
}
