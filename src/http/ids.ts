// Path and body ids are a UUID or, where a resource has one, its publicId (docs/decisions.md §4). The one
// place an id from a request is parsed: UUIDs in any case (stored lower-case), numeric publicIds only
// within their column's range (a larger number is simply not found, never a database error), text
// publicIds as they are. Body and query ids with `format: uuid` are lower-cased by validation itself
// (validation.ts, the `lowercase` keyword of schemas.ts Uuid).
/** A UUID in its plain form, in any case: what the `uuid` format of every schema accepts (validation.ts). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The largest publicId a number column holds (PostgreSQL integer). */
const MAX_PUBLIC_NUMBER = 2_147_483_647;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A UUID, lower-cased, or null when the value is not one. */
export function uuidRef(ref: string): string | null {
  return isUuid(ref) ? ref.toLowerCase() : null;
}

/** A UUID or a numeric publicId (tasks); null for anything that cannot name one. */
export function numberRef(ref: string): { id: string } | { publicId: number } | null {
  const id = uuidRef(ref);
  if (id) return { id };
  if (!/^\d{1,10}$/.test(ref)) return null;
  const n = Number(ref);
  return n <= MAX_PUBLIC_NUMBER ? { publicId: n } : null;
}

/** A UUID or a text publicId (projects, teams, areas). */
export function textRef(ref: string): { id: string } | { publicId: string } {
  const id = uuidRef(ref);
  return id ? { id } : { publicId: ref };
}
