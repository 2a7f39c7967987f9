// The one definition of "a word" for search (docs/decisions.md §5), used for stored text and for queries
// alike, on both databases: Unicode NFKC, lower case, diacritics removed, split on anything that is not a
// letter or a digit. The databases only ever see these words, so SQLite and PostgreSQL cannot disagree.

/** Longer words are cut here on both sides, so a long query word still matches its stored twin. */
const MAX_WORD = 100;
const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
/**
 * ASCII text is its own NFKC, NFD and NFC form and holds no marks, so folding it is lower case alone,
 * and its letters and digits are a-z and 0-9: the same words, without Unicode's tables (a third of
 * the time an import spends on task words).
 */
const NOT_ASCII = /[\u0080-\uffff]/;
const ASCII_SEPARATORS = /[^a-z0-9]+/;

export function foldText(text: string): string {
  if (!NOT_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').toLowerCase().normalize('NFD').replace(MARKS, '').normalize('NFC');
}

/** The words of a text, in order, duplicates kept. */
export function words(text: string | null | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  const folded = foldText(text);
  for (const w of folded.split(NOT_ASCII.test(folded) ? SEPARATORS : ASCII_SEPARATORS)) {
    if (w) out.push(w.length > MAX_WORD ? w.slice(0, MAX_WORD) : w);
  }
  return out;
}

/** The distinct words of a text: what gets indexed, and what a query asks for. */
export function distinctWords(text: string | null | undefined): string[] {
  return [...new Set(words(text))];
}
