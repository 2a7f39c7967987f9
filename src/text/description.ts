// Descriptions (decisions §4): a request gives Markdown (a string or {markdown}) or HTML ({html}); we
// keep sanitized HTML and Markdown, and a plain text for search. Markdown is rendered with marked and
// HTML turned into Markdown with turndown; either way the HTML is sanitized last, so nothing that is
// stored or returned can carry scripts, event handlers or javascript: URLs.
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';
import { type AppError, invalid } from '../http/errors.ts';

export type DescriptionInput = string | { markdown: string } | { html: string };

export interface Description {
  html: string;
  markdown: string;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 's', 'input'],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    input: ['type', 'checked', 'disabled'],
    '*': [],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
};

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});

const RAW_HTML = /<[a-z!/?]/i;

export function sanitize(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/**
 * How deeply a description may nest: block quotes and list items in Markdown, elements in HTML. The
 * converters recurse once per level, so `>` × 5,000 would overflow the stack; real documents stay far
 * below this. Deeper input is a 400 before any conversion runs.
 */
export const MAX_NESTING = 100;

// One container marker at the start of a line: a block quote, or a list item (bullet or ordered).
const CONTAINER = /^[ \t]{0,3}(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** The deepest nesting of block quotes and list items on any line of Markdown. */
export function markdownDepth(markdown: string): number {
  let deepest = 0;
  for (let line of markdown.split('\n')) {
    let depth = 0;
    for (let m = CONTAINER.exec(line); m && depth <= MAX_NESTING; m = CONTAINER.exec(line)) {
      depth += 1;
      line = line.slice(m[0].length);
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** The deepest nesting of elements in HTML (unclosed ones count as open). */
export function htmlDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    if (VOID_ELEMENTS.has(m[2]!.toLowerCase()) || m[3]) continue;
    depth = m[1] ? Math.max(0, depth - 1) : depth + 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

function tooDeep(field: string): AppError {
  return invalid(field, `nests deeper than ${MAX_NESTING} levels (block quotes, lists or HTML elements)`);
}

/** A description (or post content) from a request; `field` names it in a 400. */
export function fromInput(input: DescriptionInput, field = 'description'): Description {
  const text = typeof input === 'string' ? input : 'markdown' in input ? input.markdown : input.html;
  const isHtml = typeof input !== 'string' && 'html' in input;
  if ((!isHtml && markdownDepth(text) > MAX_NESTING) || htmlDepth(text) > MAX_NESTING) throw tooDeep(field);
  try {
    return convert(text, isHtml);
  } catch (error) {
    // A shape of input that recurses deeper than the checks above foresaw is still the client's 400.
    if (error instanceof RangeError) throw tooDeep(field);
    throw error;
  }
}

function convert(text: string, isHtml: boolean): Description {
  if (!isHtml) {
    const html = sanitize(marked.parse(text, { async: false, gfm: true })).trim();
    // Markdown may embed raw HTML; then the Markdown kept is the one of the sanitized HTML, so that
    // neither stored form carries what the sanitizer removed.
    return { markdown: RAW_HTML.test(text) ? turndown.turndown(html) : text, html };
  }
  const html = sanitize(text).trim();
  return { html, markdown: turndown.turndown(html) };
}

export const EMPTY: Description = { html: '', markdown: '' };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of the HTML, for the search index: tags removed, entities decoded. */
export function plainText(html: string): string {
  return sanitizeHtml(html.replace(/<\/(p|div|li|h\d|br|tr)>/gi, ' $&'), {
    allowedTags: [],
    allowedAttributes: {},
  }).replace(/&(#x?[0-9a-f]+|\w+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}
