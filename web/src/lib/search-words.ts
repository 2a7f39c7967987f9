// Search text as a person types it and as the URL holds it, and the API's matching rule applied in the
// browser (docs/search.md): every typed word is the start of some word, in any order, without regard
// to case or accents. Pure functions: the palette, the search page and their tests share them.

/** Typed text worth sending: trimmed, at most 200 characters (the API treats a text without words
 *  as absent). */
export function searchText(text: string): string {
  return text.trim().slice(0, 200);
}

/** `142`, `#142` or `ENG-142`: a task's number (tasks are numbered across the workspace). */
export function taskNumberOf(text: string): number | undefined {
  const match = /^(?:#|[A-Za-z][A-Za-z0-9]*-)?(\d{1,9})$/.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

/** Lower case, without diacritics, split on anything that is not a letter or a digit. */
function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Every typed word starts some word of the text (a text without words matches everything). */
export function matchesWords(text: string, typed: string): boolean {
  const words = wordsOf(text);
  return wordsOf(typed).every((part) => words.some((word) => word.startsWith(part)));
}

/** The search page's `?q=` as the URL holds it; anything else is dropped. */
export function parseSearchPage(search: Record<string, unknown>): { q?: string } {
  const q = typeof search.q === 'string' ? searchText(search.q) : '';
  return q ? { q } : {};
}
