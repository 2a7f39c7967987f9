// Descriptions (docs/api.md, "Descriptions"): a request gives Markdown (a string or {markdown}) or HTML
// ({html}); we keep sanitized HTML and Markdown, and a plain text for search. Markdown is rendered with
// markdown-it and HTML turned into Markdown with turndown; either way the HTML is sanitized last, so
// nothing that is stored or returned can carry scripts, event handlers or javascript: URLs.
//
// Every step here is linear in its input (markdown-it passes CommonMark's pathological tests; HTML is
// tokenized by htmlparser2, never matched by a backtracking regular expression), and the server runs
// it off the event loop: see render-pool.ts. `fromInput` converts inline only for callers that are not
// serving requests (the CLI, seeding, tests) or for input the pool has already converted (RichText).
//
// The converters are loaded on first use, not with this module: a server converts in its render
// pool's threads (the services here only read what the pool made), so its main thread never needs
// markdown-it, turndown (with its DOM) or sanitize-html: ~10 MB of code and data not loaded. A pool
// thread loads turndown only when it first meets HTML (~5 MB).
// htmlparser2 is its CommonJS build, the one sanitize-html requires, so that a process holds one copy.
import { createRequire } from 'node:module';
import type * as Htmlparser2 from 'htmlparser2';
import type { default as Markdown, MarkdownIt } from 'markdown-it';
import type SanitizeHtml from 'sanitize-html';
import type TurndownService from 'turndown';
import { type AppError, invalid } from '../http/errors.ts';
import { taskLists } from './task-lists.ts';

const require = createRequire(import.meta.url);

export type DescriptionInput = string | { markdown: string } | { html: string } | RichText;

export interface Description {
  html: string;
  markdown: string;
}

/**
 * A description or post content that the render pool converted before the request's transaction
 * began (render-pool.ts): either the converted description or the 400 that refuses it.
 */
export class RichText {
  readonly description: Description | null;
  readonly failure: AppError | null;
  constructor(description: Description | null, failure: AppError | null) {
    this.description = description;
    this.failure = failure;
  }
}

interface Converters {
  markdown: MarkdownIt;
  sanitize(html: string): string;
  /** HTML to Markdown; turndown (and its DOM) is loaded only for HTML input or Markdown with raw HTML. */
  toMarkdown(html: string): string;
}
let converters: Converters | undefined;

function theConverters(): Converters {
  if (converters) return converters;
  const sanitizeHtml = require('sanitize-html') as typeof SanitizeHtml;
  const MarkdownIt = require('markdown-it') as typeof Markdown;
  const options = sanitizeOptions(sanitizeHtml.defaults.allowedTags);
  let turndown: TurndownService | undefined;
  converters = {
    // CommonMark with GitHub's tables, strikethrough, bare links and task lists (read-only checkboxes);
    // raw HTML passes through to the sanitizer, which decides what of it stays.
    markdown: new MarkdownIt({ html: true, linkify: true }).use(taskLists),
    sanitize: (html) => sanitizeHtml(html, options),
    toMarkdown(html) {
      turndown ??= new (require('turndown') as typeof TurndownService)({
        headingStyle: 'atx',
        codeBlockStyle: 'fenced',
        bulletListMarker: '-',
      });
      return turndown.turndown(html);
    },
  };
  return converters;
}

let htmlparser2: typeof Htmlparser2 | undefined;
function parser(
  handler: Partial<Htmlparser2.Handler>,
  options: Htmlparser2.ParserOptions,
): Htmlparser2.Parser {
  htmlparser2 ??= require('htmlparser2') as typeof Htmlparser2;
  return new htmlparser2.Parser(handler, options);
}

const sanitizeOptions = (defaultTags: string[]): SanitizeHtml.IOptions => ({
  allowedTags: [...defaultTags, 'img', 'del', 's', 'input'],
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
});

const RAW_HTML = /<[a-z!/?]/i;

/**
 * How deeply a description may nest: block quotes and list items in Markdown, elements in HTML. The
 * converters recurse once per level, so `>` × 5,000 would overflow the stack; real documents stay far
 * below this. Deeper input is a 400 before any conversion runs.
 */
export const MAX_NESTING = 100;

// One container marker at the start of a line: a block quote, or a list item (bullet or ordered).
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

const CONTAINER = /^[ \t]{0,3}(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;

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

/**
 * The deepest nesting of elements in HTML (unclosed ones count as open; void elements such as `<br>`
 * do not nest). htmlparser2's tokenizer is linear; the regular expression this replaced scanned to the
 * end of the text from every `<` that had no `>` (2.4 s for 200,000 characters of `<a `).
 */
export function htmlDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  const tokenizer = parser(
    {
      onopentag(name) {
        if (VOID_ELEMENTS.has(name)) return;
        depth += 1;
        if (depth > deepest) deepest = depth;
      },
      onclosetag(name) {
        if (!VOID_ELEMENTS.has(name)) depth = Math.max(0, depth - 1);
      },
    },
    { decodeEntities: false },
  );
  tokenizer.end(html);
  return deepest;
}

function tooDeep(field: string): AppError {
  return invalid(field, `nests deeper than ${MAX_NESTING} levels (block quotes, lists or HTML elements)`);
}

/** The text and its form, from any accepted input shape other than RichText. */
export function sourceOf(input: Exclude<DescriptionInput, RichText>): { text: string; isHtml: boolean } {
  if (typeof input === 'string') return { text: input, isHtml: false };
  return 'markdown' in input ? { text: input.markdown, isHtml: false } : { text: input.html, isHtml: true };
}

/** A description (or post content) from a request; `field` names it in a 400. */
export function fromInput(input: DescriptionInput, field = 'description'): Description {
  if (input instanceof RichText) {
    if (input.failure) throw input.failure;
    return input.description!;
  }
  const { text, isHtml } = sourceOf(input);
  return convert(text, isHtml, field);
}

/** The conversion itself: depth checks, then Markdown → HTML (or HTML), sanitized, and its Markdown. */
export function convert(text: string, isHtml: boolean, field: string): Description {
  if ((!isHtml && markdownDepth(text) > MAX_NESTING) || htmlDepth(text) > MAX_NESTING) throw tooDeep(field);
  const { markdown, sanitize, toMarkdown } = theConverters();
  try {
    if (!isHtml) {
      const html = sanitize(markdown.render(text)).trim();
      // Markdown may embed raw HTML; then the Markdown kept is the one of the sanitized HTML, so that
      // neither stored form carries what the sanitizer removed.
      return { markdown: RAW_HTML.test(text) ? toMarkdown(html) : text, html };
    }
    const html = sanitize(text).trim();
    return { html, markdown: toMarkdown(html) };
  } catch (error) {
    // A shape of input that recurses deeper than the checks above foresaw (inline emphasis nested
    // thousands deep, which turndown walks recursively) is still the client's 400.
    if (error instanceof RangeError) throw tooDeep(field);
    throw error;
  }
}

export const EMPTY: Description = { html: '', markdown: '' };

// Elements after which the words of the next one must not run on (`<p>a</p><p>b</p>` is "a b").
const BREAKS = new Set(['p', 'div', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br', 'tr', 'td', 'th']);

// The search text of descriptions this process converted moments ago, by their HTML: the render pool
// derives it off the event loop (render-pool.ts), and the index hook of the same request finds it
// here instead of deriving it again on the event loop. Bounded by characters kept; a miss (evicted, or
// HTML read back from the database) only means deriving it again.
const recentTexts = new Map<string, string>();
const RECENT_TEXT_LIMIT = 8_000_000;
let recentChars = 0;

export function rememberPlainText(html: string, text: string): void {
  if (html.length < 2_000 || recentTexts.has(html)) return;
  recentTexts.set(html, text);
  recentChars += html.length + text.length;
  for (const [oldHtml, oldText] of recentTexts) {
    if (recentChars <= RECENT_TEXT_LIMIT) break;
    recentTexts.delete(oldHtml);
    recentChars -= oldHtml.length + oldText.length;
  }
}

/** The words of the HTML, for the search index: tags removed, entities decoded. */
export function plainText(html: string): string {
  const known = recentTexts.get(html);
  if (known !== undefined) return known;
  const parts: string[] = [];
  const tokenizer = parser(
    {
      ontext: (text) => parts.push(text),
      onclosetag: (name) => {
        if (BREAKS.has(name)) parts.push(' ');
      },
    },
    { decodeEntities: true },
  );
  tokenizer.end(html);
  return parts.join('');
}
