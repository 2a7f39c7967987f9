// The list of settings (src/settings.ts) against what config.ts parses, and the files written from it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadConfig } from './config.ts';
import { envExample, literalDefault, SETTINGS, settingsTable } from './settings.ts';

const root = new URL('..', import.meta.url).pathname;

test('every variable config.ts reads is listed, once, and nothing else', () => {
  const source = readFileSync(`${root}src/config.ts`, 'utf8');
  const read = new Set([...source.matchAll(/\(env, '([A-Z_]+)'/g)].map((m) => m[1]));
  const listed = SETTINGS.map((s) => s.name);
  assert.equal(new Set(listed).size, listed.length, 'a setting listed twice');
  assert.deepEqual([...read].sort(), [...listed].sort());
});

test('a default written as a value is what an unset variable gives', () => {
  const unset = loadConfig({});
  const literal = SETTINGS.filter((s) => literalDefault(s) !== undefined);
  assert.ok(literal.length >= 15);
  for (const setting of literal) {
    assert.deepEqual(loadConfig({ [setting.name]: literalDefault(setting)! }), unset, setting.name);
  }
});

test('README.md and .env.example are written from the list (npm run settings)', () => {
  assert.ok(
    readFileSync(`${root}README.md`, 'utf8').includes(`${settingsTable()}\n\n`),
    'README.md: npm run settings',
  );
  assert.equal(readFileSync(`${root}.env.example`, 'utf8'), envExample(), '.env.example: npm run settings');
});
