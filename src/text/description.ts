// Descriptions (decisions §4): a request gives Markdown (a string or {markdown}) or HTML ({html}); we
// keep sanitized HTML and Markdown, and a plain text for search. Markdown is rendered with marked and
// HTML turned into Markdown with turndown; either way the HTML is sanitized last, so nothing that is
// stored or returned can carry scripts, event handlers or javascript: URLs.
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';

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

export function fromInput(input: DescriptionInput): Description {
  if (typeof input === 'string' || 'markdown' in input) {
    const markdown = typeof input === 'string' ? input : input.markdown;
    const html = sanitize(marked.parse(markdown, { async: false, gfm: true })).trim();
    // Markdown may embed raw HTML; then the Markdown kept is the one of the sanitized HTML, so that
    // neither stored form carries what the sanitizer removed.
    return { markdown: RAW_HTML.test(markdown) ? turndown.turndown(html) : markdown, html };
  }
  const html = sanitize(input.html).trim();
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
