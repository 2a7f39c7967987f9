// The short-line path gives exactly what the converters give, or stands aside.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { convert } from './description.ts';
import { plainParagraph } from './plain-paragraph.ts';

test('one line of plain words: the same HTML and Markdown as the converters', () => {
  for (const text of [
    'Ship it',
    'made by the bench',
    'Fix the login bug.',
    'Déjà vu, again!',
    'Why not?',
    'Note: 3 items',
  ]) {
    const quick = plainParagraph(text);
    assert.ok(quick, `${text} takes the short path`);
    assert.deepEqual(quick, convert(text, false, 'description'), text);
  }
  assert.deepEqual(plainParagraph('Fix the login bug.'), {
    html: '<p>Fix the login bug.</p>',
    markdown: 'Fix the login bug.',
  });
});

test('anything Markdown or a link detector would act on stands aside', () => {
  const others = [
    '1.',
    '2 apples',
    'see example.com',
    'a  b',
    'a\nb',
    '**bold**',
    '# title',
    '- item',
    'x & y',
    'a <b>',
    'mail a@b',
    'é'.repeat(501),
    '',
    ' lead',
    'trail ',
  ];
  for (const text of others) assert.equal(plainParagraph(text), undefined, JSON.stringify(text));
});

test('generated text: whenever the short path answers, it answers as the converters do', () => {
  const pieces = [
    'a',
    'Z',
    'é',
    'ß',
    'Ω',
    'я',
    '中',
    'ك',
    '7',
    '0',
    ' ',
    ', ',
    '; ',
    ': ',
    '.',
    '!',
    '?',
    '-',
    '*',
    '_',
    '#',
    '&',
    '<',
    '>',
    '"',
    "'",
    '(',
    ')',
    '[',
    ']',
    '`',
    '~',
    '|',
    '\\',
    '/',
    '@',
    '=',
    '+',
    '\n',
    '  ',
    'www',
    'http',
    'com',
  ];
  let answered = 0;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
      const text = parts.join('');
      const quick = plainParagraph(text);
      if (quick === undefined) return;
      answered += 1;
      assert.deepEqual(quick, convert(text, false, 'description'), JSON.stringify(text));
    }),
    { numRuns: 20_000, seed: 22 },
  );
  assert.ok(answered > 500, `only ${answered} generated texts took the short path`);
});
