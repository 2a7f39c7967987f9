// Rows of one query, grouped for presenting a page: an expansion's rows by the item they belong to.

/** The rows (or `value` of each) by `key`, each group in the rows' order. */
export function groupBy<R, V = R>(
  rows: readonly R[],
  key: (r: R) => string,
  value: (r: R) => V = (r) => r as unknown as V,
): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const r of rows) {
    const list = out.get(key(r));
    if (list) list.push(value(r));
    else out.set(key(r), [value(r)]);
  }
  return out;
}

/** Rows by their id, for looking up an expansion's row. */
export function byId<R extends { id: string }>(rows: readonly R[]): Map<string, R> {
  return new Map(rows.map((r) => [r.id, r]));
}
