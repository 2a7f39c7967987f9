// The inputs that make Markdown and HTML converters slow: the pathological cases CommonMark's
// reference implementations (cmark, commonmark.js) test against, with GitHub's extensions (tables,
// strikethrough, task lists, bare links) and HTML forms, each cut to a given size (the 200,000
// characters a description may have, or less to fit a batch). Used by src/text/render.test.ts and
// `npm run fuzz`.

/** `unit` repeated to exactly `size` characters. */
const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const cut = (text: string, size: number) => text.slice(0, size);

export interface PathologicalCase {
  name: string;
  /** A description as a request gives it: Markdown text, or {html}. */
  input: string | { html: string };
}

const MARKDOWN: [string, (size: number) => string][] = [
  ['nested strong emphasis', (n) => cut(`${'*a **a '.repeat(n / 14)}b${' a** a*'.repeat(n / 14)}`, n)],
  ['emphasis closers without openers', (n) => fill('a_ ', n)],
  ['emphasis openers without closers', (n) => fill('_a ', n)],
  ['mismatched openers and closers', (n) => fill('*a_ ', n)],
  ['star, a, underscore', (n) => fill('*a_', n)],
  ['intraword underscores', (n) => fill('a_b_', n)],
  ['openers and closers multiple of 3', (n) => cut(`a**b${fill('c* ', n)}`, n)],
  ['link closers without openers', (n) => fill('a]', n)],
  ['link openers without closers', (n) => fill('[a', n)],
  ['link openers and emphasis closers', (n) => fill('[ a_', n)],
  ['pattern [ (]( repeated', (n) => fill('[ (](', n)],
  ['pattern ![[]() repeated', (n) => fill('![[]()', n)],
  ['nested brackets', (n) => cut(`${'['.repeat(n / 2)}a${']'.repeat(n / 2)}`, n)],
  ['nested images', (n) => cut(`${'!['.repeat(n / 6)}a${'](b)'.repeat(n / 6)}`, n)],
  ['unclosed links A', (n) => fill('[a](<b', n)],
  ['unclosed links B', (n) => fill('[a](b', n)],
  ['unclosed images', (n) => fill('![a](b', n)],
  ['unclosed comments', (n) => cut(`</${fill('<!--', n)}`, n)],
  [
    'many backticks',
    (n) => cut(Array.from({ length: 2_000 }, (_, i) => `e${'`'.repeat(i + 1)}`).join(''), n),
  ],
  ['many references', (n) => cut(Array.from({ length: n / 6 }, (_, i) => `[${i}]: u\n`).join(''), n)],
  ['emphasis around links', (n) => fill('*[a](b) ', n)],
  ['autolink openers', (n) => fill('<a:', n)],
  ['tag openers', (n) => fill('<a ', n)],
  ['entity openers', (n) => fill('&#', n)],
  ['strikethrough runs', (n) => fill('~a~~', n)],
  ['bare links', (n) => fill('www.a.b_ ', n)],
  ['task list items', (n) => fill('- [ ] a\n', n)],
  ['flat list items', (n) => fill('- a\n', n)],
  [
    'nested lists to the bound',
    (n) => fill(Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}* a\n`).join(''), n),
  ],
  ['block quotes to the bound', (n) => fill(`${'> '.repeat(100)}a\n`, n)],
  ['table with many rows', (n) => cut(`| a | b |\n|---|---|\n${fill('| x | y |\n', n)}`, n)],
  [
    'table with many columns',
    (n) => cut(`|${fill('a|', n / 3)}\n|${fill('-|', n / 3)}\n|${fill('b|', n / 3)}`, n),
  ],
  [
    'wide table with many rows',
    (n) => cut(`|${'a|'.repeat(500)}\n|${'-|'.repeat(500)}\n${fill(`|${'b|'.repeat(500)}\n`, n)}`, n),
  ],
];

const HTML: [string, (size: number) => string][] = [
  ['html: tag openers', (n) => fill('<a ', n)],
  ['html: unclosed comments', (n) => fill('<!--', n)],
  ['html: nested inline to the bound', (n) => fill(`${'<b><i>'.repeat(50)}x${'</i></b>'.repeat(50)}`, n)],
  ['html: unclosed elements', (n) => fill('<p><span>a', n)],
  ['html: many attributes', (n) => cut(`<img ${fill('a="b" ', n)}>`, n)],
  ['html: entities', (n) => fill('&amp;&#x41;&lt;&', n)],
  ['html: table cells', (n) => cut(`<table><tr>${fill('<td>a</td>', n)}</tr></table>`, n)],
];

/** Every case at `size` characters: Markdown as text, HTML as {html}. */
export function pathologicalCorpus(size: number): PathologicalCase[] {
  return [
    ...MARKDOWN.map(([name, make]) => ({ name, input: make(size) })),
    ...HTML.map(([name, make]) => ({ name, input: { html: make(size) } })),
  ];
}
