// PostgreSQL: the hot paths repeat the same few statements, so each connection prepares them once
// (a named statement: parsed and planned on first use, then only bound and executed). Measured on the
// bench's get of a task: the server's parse and plan were a third of each query's time.
//
// Which statements are named:
// - only those with parameters (savepoints, BEGIN and COMMIT carry none and some vary by name);
// - never a text search (`@@`): its best plan depends on how common the searched words are, and a
//   prepared statement may settle on a generic plan that ignores the values (a word walk that leaves
//   its text condition out, search/word-walk.ts, is named: its statement fixes its plan's shape, one
//   limited index range per word, whatever the values);
// - never one that selects or returns `*`: a prepared statement's result columns are fixed, so once
//   another process's migration added a column, every later run of it would fail ("cached plan must
//   not change result type") until the connection closed; unnamed, the old code just gets one more
//   column;
// - at most MAX_NAMED distinct texts per process (an `in (…)` list makes one text per length), so the
//   statements each connection holds on the server stay bounded; later texts run unnamed as before.
import type pg from 'pg';

const MAX_NAMED = 1000;
/** `*` as a column list (`select *`, `"t".*`, `returning *`), not `count(*)`. */
const STAR = /(?<!\()\*(?!\))/;
const names = new Map<string, string>();

/** The statement name of a SQL text, or undefined when it is to run unnamed. */
export function statementName(text: string, parameterCount: number): string | undefined {
  // Called for every query: a known text costs one map lookup.
  if (parameterCount === 0) return undefined;
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED || text.includes('@@') || STAR.test(text)) return undefined;
    name = `cairn_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

const prepared = Symbol('cairn.prepared');
type Query = (...args: unknown[]) => unknown;

/** Makes a pool client run Kysely's `query(text, values)` calls as named statements. */
export function prepareStatements(client: pg.PoolClient): void {
  const c = client as pg.PoolClient & { [prepared]?: true };
  if (c[prepared]) return;
  c[prepared] = true;
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && args.length === 2) {
      const name = statementName(text, values.length);
      if (name) return query({ name, text, values });
    }
    return query(...args);
  };
}
