// The operator's password links, as real processes on the database of this pass (as src/process.test.ts
// tests the first start): the first start of an empty install prints a one-time setup link beside the
// bootstrap token, which sets the owner's password once; `cairn user reset-password` prints a reset
// link that does the same; a second start prints none.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../db/index.ts';
import { onPostgres } from '../../test/helpers.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';

const root = new URL('../../..', import.meta.url).pathname;
let databaseUrl: string;

if (onPostgres) {
  const url = process.env.TEST_POSTGRES_URL!;
  const schema = `cairn_links_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema},public`);
  databaseUrl = withSchema.toString();
  after(async () => {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });
} else {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-links-'));
  databaseUrl = `file:${join(dir, 'cairn.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));
}

const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'info',
  CAIRN_PUBLIC_URL: 'http://cairn.test',
};
const LINK = /^http:\/\/cairn\.test\/reset-password\/([A-Za-z0-9_-]{43})$/;

function cli(args: string[]) {
  return spawnSync(process.execPath, ['src/cli.ts', ...args], { cwd: root, env, encoding: 'utf8' });
}

function startServer(): Promise<ServerProcess> {
  return startServerProcess({ ...env, PORT: '0' });
}

async function ownerPasswordHash(): Promise<string | null> {
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    const row = await database.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'owner@localhost')
      .executeTakeFirstOrThrow();
    return row.password_hash;
  } finally {
    await database.close();
  }
}

test('the first start prints a setup link; it and the CLI’s reset link each set the password once', async () => {
  const server = await startServer();
  const reset = async (token: string, password: string) => {
    const res = await fetch(`${server.url}/v1/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password }),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  try {
    const printed = /^Setup link: (\S+) \(sets the owner's password; works once, until (\S+)\)$/m.exec(
      server.output(),
    );
    assert.ok(printed, server.output());
    assert.match(printed[1]!, LINK);
    // A day to use it: the operator may read the output later than a person reads a reset mail.
    const setupToken = LINK.exec(printed[1]!)![1]!;
    assert.ok(Date.parse(printed[2]!) - Date.now() > 23 * 60 * 60 * 1000);
    // Printed for the operator only: no log line carries it.
    const logLines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    assert.ok(!logLines.some((l) => l.includes(setupToken)));

    assert.equal(await ownerPasswordHash(), null);
    assert.deepEqual(await reset(setupToken, 'the owner chose this'), { status: 204, body: null });
    const first = await ownerPasswordHash();
    assert.match(String(first), /^\$argon2id\$/);
    const again = await reset(setupToken, 'and again, later on');
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'invalid_token');

    // The operator's way back in: a reset link for a user by email.
    const made = cli(['user', 'reset-password', '--email', 'OWNER@localhost']);
    assert.equal(made.status, 0, made.stderr);
    const link = JSON.parse(made.stdout);
    assert.deepEqual(Object.keys(link).sort(), ['expiresAt', 'url']);
    assert.match(link.url, LINK);
    const minutes = (Date.parse(link.expiresAt) - Date.now()) / 60_000;
    assert.ok(minutes > 55 && minutes <= 60, String(minutes));
    const token = LINK.exec(link.url)![1]!;
    assert.equal((await reset(token, 'the operator reset it')).status, 204);
    assert.notEqual(await ownerPasswordHash(), first);
    assert.equal((await reset(token, 'once more with feeling')).status, 400);
  } finally {
    server.child.kill('SIGTERM');
  }
  assert.equal(await server.exited, 0);

  // A second start bootstraps nothing, so prints no link.
  const again = await startServer();
  again.child.kill('SIGTERM');
  assert.equal(await again.exited, 0);
  assert.doesNotMatch(again.output(), /Setup link/);
});

test('cairn user reset-password refuses bad arguments with one line and exit code 2', () => {
  const nobody = cli(['user', 'reset-password', '--email', 'nobody@nowhere.test']);
  assert.equal(nobody.status, 2);
  assert.equal(nobody.stderr, 'cairn: no user with email nobody@nowhere.test in workspace "Default"\n');
  const missing = cli(['user', 'reset-password']);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, 'cairn: user reset-password needs --email EMAIL\n');
  const workspace = cli(['user', 'reset-password', '--email', 'owner@localhost', '--workspace', 'nope']);
  assert.equal(workspace.status, 2);
  assert.equal(workspace.stderr, 'cairn: no workspace nope\n');
  const elsewhere = cli([
    'user',
    'reset-password',
    '--email',
    'owner@localhost',
    '--workspace',
    '00000000-0000-4000-8000-000000000003',
  ]);
  assert.equal(elsewhere.status, 2);
  assert.equal(elsewhere.stderr, 'cairn: no workspace 00000000-0000-4000-8000-000000000003\n');
});
