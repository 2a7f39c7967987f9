// The JavaScript of the first load stays under 250 kB gzipped (issue 26, "Quality"): the scripts
// web/dist/index.html loads (its module script and modulepreloads), gzipped as a browser receives them
// (the build's .gz copies). Once, in the SQLite pass.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { onPostgres } from '../../src/test/helpers.ts';

const LIMIT = 250 * 1024;
const dist = new URL('../dist/', import.meta.url);

test('the first load’s JavaScript is under 250 kB gzipped', {
  skip: onPostgres && 'once, in the SQLite pass',
}, (t) => {
  const html = readFileSync(new URL('index.html', dist), 'utf8');
  const scripts = [
    ...html.matchAll(/<script type="module"[^>]* src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  assert.ok(scripts.length > 0, 'index.html loads no script');
  let total = 0;
  for (const script of scripts) {
    const gzipped = gzipSync(readFileSync(new URL(script, dist))).length;
    t.diagnostic(`${script}: ${gzipped} bytes gzipped`);
    total += gzipped;
  }
  t.diagnostic(`first load: ${total} bytes of JavaScript gzipped`);
  assert.ok(total < LIMIT, `${total} bytes gzipped`);
});
