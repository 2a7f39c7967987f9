// The package against the server it speaks to: the committed types and table of operations are what the
// current /openapi.json generates (no drift), the package type-checks on TypeScript 5 with no Node types (the browser entry
// cannot lean on Node), and it builds. Once, in the SQLite pass: none of it depends on the database.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { onPostgres } from '../../src/test/helpers.ts';
import {
  GENERATED,
  generateOperations,
  generateTypes,
  OPERATIONS,
  serverDocument,
} from '../scripts/document.ts';

const once = onPostgres ? test.skip : test;
const dir = new URL('..', import.meta.url).pathname;

once('src/openapi.ts and src/operations.ts are what the current server’s document generates', async () => {
  const doc = await serverDocument();
  const stale = (file: string) => `${file} is stale: run \`npm run generate -w client\` and commit it`;
  assert.ok((await generateTypes(doc)) === readFileSync(GENERATED, 'utf8'), stale('src/openapi.ts'));
  assert.ok(generateOperations(doc) === readFileSync(OPERATIONS, 'utf8'), stale('src/operations.ts'));
});

once('the package type-checks without Node’s types, and builds', () => {
  const tsc = (...args: string[]) =>
    spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  const check = tsc('-p', 'tsconfig.json');
  assert.equal(check.status, 0, check.stdout + check.stderr);
  const build = tsc(
    '-p',
    'tsconfig.build.json',
    '--outDir',
    join(dir, 'node_modules/.cache/cairn-client-dist'),
  );
  assert.equal(build.status, 0, build.stdout + build.stderr);
});
