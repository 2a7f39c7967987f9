// The commonest description is one short line of plain words ("Ship the release notes."). Markdown
// renders it as one paragraph with nothing to sanitize, so it needs neither the converters nor a trip
// to the render pool's thread (render-pool.ts): this answers it on the spot, as `convert` would
// (plain-paragraph.test.ts compares the two over generated text). Anything else goes the long way.

/**
 * A letter first (`1.` alone is a list), then letters and digits, words separated by one space or by
 * `,;:` and a space; a line that ends in a letter, a digit or one of `.!?`. Nothing Markdown, a link
 * detector or the sanitizer would act on: no markup characters, no dot inside the line
 * (`example.com` becomes a link), no line breaks.
 */
const PLAIN = /^\p{L}[\p{L}\p{N}]*(?:[,;:]? [\p{L}\p{N}]+)*[.!?]?$/u;

/** Longer text is left to the pool: this path is for the common short line, not a second converter. */
const MAX_LENGTH = 500;

/** One line of plain words as `convert` renders it, or undefined for anything else. */
export function plainParagraph(text: string): { html: string; markdown: string } | undefined {
  if (text.length > MAX_LENGTH || !PLAIN.test(text)) return undefined;
  return { html: `<p>${text}</p>`, markdown: text };
}
