// The browser entry bundles for a page with no Node shims (esbuild, platform browser: a `node:` import
// fails the build), and what it adds to a page stays under 15 kB gzipped. Once, in the SQLite pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { onPostgres } from '../../src/test/helpers.ts';

const once = onPostgres ? test.skip : test;
const LIMIT = 15 * 1024;

for (const entry of ['index', 'webhooks']) {
  once(`${entry}.ts bundles for the browser under 15 kB gzipped`, async (t) => {
    const result = await build({
      entryPoints: [new URL(`../src/${entry}.ts`, import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.contents;
    const gzipped = gzipSync(code).length;
    t.diagnostic(`${entry}: ${code.length} bytes minified, ${gzipped} gzipped`);
    assert.doesNotMatch(new TextDecoder().decode(code), /\bfrom\s*["']node:/);
    assert.ok(gzipped < LIMIT, `${gzipped} bytes gzipped`);
  });
}
