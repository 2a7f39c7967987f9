// The rule every request passes: no string a database cannot store (NUL, unpaired surrogates).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unstorableString } from './validation.ts';

test('finds a NUL or an unpaired surrogate anywhere, keys included, and names where', () => {
  assert.equal(unstorableString({ a: 'fine', b: ['é', '🚀', 1, null] }, '/body'), null);
  assert.equal(unstorableString({ a: { b: ['ok', 'x\u0000'] } }, '/body')?.path, '/body/a/b/1');
  assert.equal(unstorableString({ 'k\u0000': 1 }, '/body')?.path, '/body/k\u0000');
  assert.equal(unstorableString('\ud800', '/params/id')?.path, '/params/id');
  assert.equal(
    unstorableString('a\udc00b', '/q')?.message,
    'contains an unpaired UTF-16 surrogate, which is not text',
  );
  assert.equal(unstorableString({ 'a/b': '\u0000' }, '/body')?.path, '/body/a~1b');
});
