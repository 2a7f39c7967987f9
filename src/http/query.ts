// Parsing of the query conventions every list and read shares (docs/decisions.md §4, §5): string flags and
// `expand`. Schemas check the shape; these turn checked strings into meaning.
import { invalidRequest } from './errors.ts';
import { FLAG_NAMES } from './schemas.ts';

/** Query parameters that take several values: `expand`, and the events feed's `type`. */
const LIST_NAMES = ['expand', 'type'] as const;

/**
 * Query normalization before validation (a preValidation hook): `expand` in all its accepted forms
 * (`expand=a,b`, repeated, `expand[]=a`), and the same of `type`, becomes one array of names, so its schema
 * can be an array of enum values; flags are lowercased, as docs/decisions.md §4 reads them in any case.
 */
export function normalizeQuery(query: Record<string, unknown>): void {
  for (const name of LIST_NAMES) {
    if (!(name in query) && !(`${name}[]` in query)) continue;
    const given = [query[name], query[`${name}[]`]].flat().filter((v): v is string => typeof v === 'string');
    delete query[`${name}[]`];
    query[name] = given
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }
  for (const name of FLAG_NAMES) {
    const value = query[name];
    if (typeof value === 'string') query[name] = value.toLowerCase();
  }
}

/** A string flag already checked by the Flag schema: absent is false, bare (`?flag`) is true. */
export function flag(value: string | undefined): boolean {
  if (value === undefined) return false;
  return value === '' || value === '1' || value.toLowerCase() === 'true';
}

export interface ExpandInput {
  expand?: string[];
}

/** The expansions asked for: all of `allowed` by default or for `all`, none for `none`. */
export function parseExpand<T extends string>(query: ExpandInput, allowed: readonly T[]): Set<T> {
  const names = query.expand ?? [];
  if (names.length === 0 || names.includes('all')) {
    if (names.includes('none')) throw invalidRequest('/query/expand', 'all and none cannot be combined');
    return new Set(allowed);
  }
  if (names.includes('none')) {
    if (names.length > names.filter((n) => n === 'none').length) {
      throw invalidRequest('/query/expand', 'none cannot be combined with field names');
    }
    return new Set();
  }
  const out = new Set<T>();
  for (const name of names) {
    if (!(allowed as readonly string[]).includes(name)) {
      throw invalidRequest(
        '/query/expand',
        `unknown expansion "${name}"; allowed: all, none, ${allowed.join(', ') || '(none here)'}`,
      );
    }
    out.add(name as T);
  }
  return out;
}

export interface Presentation<T extends string> {
  expand: Set<T>;
  includeMarkdown: boolean;
}

/** The query fields of a request's presentation (schemas.ts PresentationQuery). */
export type PresentationInput = ExpandInput & { includeMarkdown?: string };

/** The PresentationQuery of a request. */
export function parsePresentation<T extends string>(
  query: PresentationInput,
  allowed: readonly T[],
): Presentation<T> {
  return { expand: parseExpand(query, allowed), includeMarkdown: flag(query.includeMarkdown) };
}

/** updatedSince as the stored form of an instant (UTC, milliseconds), whatever offset it was given in. */
export function sinceInstant(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString();
}
