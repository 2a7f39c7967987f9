// Descriptions: nesting is bounded before the converters recurse, in Markdown and in HTML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../http/errors.ts';
import { fromInput, htmlDepth, MAX_NESTING, markdownDepth } from './description.ts';

test('markdownDepth counts block quotes and list items at the start of a line', () => {
  assert.equal(markdownDepth('plain text'), 0);
  assert.equal(markdownDepth('> quote'), 1);
  assert.equal(markdownDepth('> > - 1. item'), 4);
  assert.equal(markdownDepth('- a\n  - b\n> > > c'), 3);
  assert.equal(markdownDepth('-not a list'), 0);
  assert.equal(markdownDepth('>'.repeat(5000)), MAX_NESTING + 1, 'counting stops past the bound');
});

test('htmlDepth counts open elements, not void ones', () => {
  assert.equal(htmlDepth('<p>a<br>b<img src="x"></p>'), 1);
  assert.equal(htmlDepth('<div><ul><li><b>x</b></li></ul></div>'), 4);
  assert.equal(htmlDepth('<div>'.repeat(300)), 300);
});

test('past the bound is a 400 naming the field; at the bound it converts', () => {
  for (const input of ['>'.repeat(5000), '- '.repeat(5000), { html: '<blockquote>'.repeat(5000) }]) {
    assert.throws(
      () => fromInput(input, 'content'),
      (e: unknown) =>
        e instanceof AppError && e.code === 'validation_failed' && e.errors?.[0]?.path === 'content',
    );
  }
  const ok = fromInput(`${'> '.repeat(MAX_NESTING)}deep`);
  assert.equal(ok.html.match(/<blockquote>/g)?.length, MAX_NESTING);
});
