// What a `*.updated` event says changed (docs/integrations.md "The payload"): the top-level fields of the
// resource as GET returns it (with `includeMarkdown`, no expansions) whose value the update changed,
// each with its value before the change. The service already holds the row it loaded (and locked)
// before the change and the row it wrote, presents both the same way, and compares them here, in
// memory: recording what changed costs no query.
import { isDeepStrictEqual } from 'node:util';

/** Some of a resource's API fields, by name. */
export type Attributes = Record<string, unknown>;

/** The fields of `before` whose value differs in `after` (a field missing from either counts). */
export function changedFrom(before: Attributes, after: Attributes): Attributes {
  const out: Attributes = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!isDeepStrictEqual(before[key], after[key])) out[key] = before[key] ?? null;
  }
  return out;
}
