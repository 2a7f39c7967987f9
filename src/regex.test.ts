// Every regular expression in the server's code and every `pattern` of the request schemas is checked
// by recheck (a ReDoS checker that also finds polynomial backtracking, which star-height checks such
// as safe-regex miss): none may take more than linear time on input a client controls
// (docs/reliability.md, "No request holds the event loop"). An expression that is polynomial only on
// input bounded small by the code around it is listed below with that bound.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { tokenizer } from 'acorn';
import { check } from 'recheck';
import { setup } from './test/helpers.ts';

const BOUNDED: Record<string, string> = {
  '-+$': 'text/slug.ts: trailing dashes of a slug stem cut to 60 characters',
  '\\/+$': 'config.ts: trailing slashes of CAIRN_PUBLIC_URL, which the operator sets, not a client',
};

/** The regular expression literals of a TypeScript file, as [pattern, flags]. */
function literalsOf(file: string): [string, string][] {
  const code = stripTypeScriptTypes(readFileSync(file, 'utf8'), { mode: 'strip' });
  const found: [string, string][] = [];
  for (const token of tokenizer(code, { ecmaVersion: 'latest', sourceType: 'module' })) {
    if (token.type.label === 'regexp') {
      const { pattern, flags } = (token as unknown as { value: { pattern: string; flags: string } }).value;
      found.push([pattern, flags]);
    }
  }
  return found;
}

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'seed'].includes(entry.name) ? [] : serverFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every `pattern` keyword in the OpenAPI document (Ajv compiles them with the u flag). */
function patternsOf(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) patternsOf(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'pattern' && typeof item === 'string') out.add(item);
      else patternsOf(item, out);
    }
  }
  return out;
}

test('no regular expression applied to input backtracks more than linearly', async () => {
  const f = await setup();
  await f.app.ready();
  const expressions = new Map<string, string>();
  for (const file of serverFiles(new URL('.', import.meta.url).pathname))
    for (const [pattern, flags] of literalsOf(file)) expressions.set(`/${pattern}/${flags}`, file);
  for (const pattern of patternsOf(f.app.swagger(), new Set())) expressions.set(`/${pattern}/u`, 'openapi');
  assert.ok(expressions.size > 30, `found ${expressions.size} expressions`);
  const failures: string[] = [];
  for (const [written, where] of expressions) {
    const at = written.lastIndexOf('/');
    const [pattern, flags] = [written.slice(1, at), written.slice(at + 1)];
    const result = await check(pattern, flags, { timeout: 10_000 });
    if (result.status === 'safe' || BOUNDED[pattern]) continue;
    const detail = result.status === 'vulnerable' ? result.complexity.summary : result.error.kind;
    failures.push(`${where}: ${written} is ${result.status} (${detail})`);
  }
  assert.deepEqual(failures, []);
});
