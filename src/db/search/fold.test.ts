import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distinctWords, foldText, words } from './fold.ts';

test('folds case, diacritics and compatibility forms', () => {
  assert.equal(foldText('Café CRÈME'), 'cafe creme');
  assert.equal(foldText('Ｗｉｄｅ'), 'wide');
  assert.equal(foldText('ﬁnance'), 'finance');
  assert.equal(foldText('Ångström'), 'angstrom');
  assert.equal(foldText('İstanbul'), 'istanbul');
});

test('splits on anything that is not a letter or a digit', () => {
  assert.deepEqual(words("Data-Science / ML, O'Brien x1"), ['data', 'science', 'ml', 'o', 'brien', 'x1']);
  assert.deepEqual(words('東京 Team 🚀'), ['東京', 'team']);
  assert.deepEqual(words('  !!  '), []);
  assert.deepEqual(words(null), []);
});

test('distinct words keep first-seen order; long words are cut at 100 characters', () => {
  assert.deepEqual(distinctWords('a b a c b'), ['a', 'b', 'c']);
  assert.equal(words('x'.repeat(150))[0]!.length, 100);
});

test('ASCII text (folded without Unicode tables) gives the words the Unicode rules give', () => {
  const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
  const unicodeFold = (t: string) =>
    t
      .normalize('NFKC')
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .normalize('NFC');
  for (const text of [ascii, `Mixed CASE words_and-dashes 42x ${ascii} end`]) {
    assert.equal(foldText(text), unicodeFold(text));
    assert.deepEqual(
      words(text),
      unicodeFold(text)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    );
  }
});
