// The documents list's URL: `?q=<words>&deleted=true`. Forgiving, as the task list's filters are: an
// unknown key or a malformed value is dropped, so an old or hand-edited link still opens.
const MAX_TEXT = 200;

export interface DocumentListSearch {
  /** Words the document's name or text has (prefix words, as the API searches). */
  q?: string;
  /** Deleted documents listed too (marked, with Restore). */
  deleted?: true;
}

/** True for the URL's ways of saying yes (`true` as the router writes it, `1` by hand). */
export function isYes(value: unknown): boolean {
  return value === true || value === 1 || value === 'true' || value === '1';
}

export function parseDocumentListSearch(search: Record<string, unknown>): DocumentListSearch {
  const parsed: DocumentListSearch = {};
  // The router reads `?q=2026` as a number: it is still words to find.
  const raw = typeof search.q === 'string' || typeof search.q === 'number' ? String(search.q) : '';
  const q = raw.trim().slice(0, MAX_TEXT);
  if (q) parsed.q = q;
  if (isYes(search.deleted)) parsed.deleted = true;
  return parsed;
}
