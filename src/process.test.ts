// The server and the CLI as real processes, on the database of this pass: first start prints a token
// that works, the CLI makes an isolated workspace, SIGTERM stops cleanly, bad configuration is one line.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from './db/index.ts';
import { MIGRATION_NAMES } from './db/migrate.ts';
import { onPostgres } from './test/helpers.ts';
import { type ServerProcess, startServerProcess } from './test/server-process.ts';

const root = new URL('..', import.meta.url).pathname;
let databaseUrl: string;

if (onPostgres) {
  const url = process.env.TEST_POSTGRES_URL!;
  const schema = `cairn_proc_${randomBytes(6).toString('hex')}`;
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
  const dir = mkdtempSync(join(tmpdir(), 'cairn-proc-'));
  databaseUrl = `file:${join(dir, 'cairn.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));
}

const baseEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' };

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['src/cli.ts', ...args], {
    cwd: root,
    env: { ...baseEnv, ...env },
    encoding: 'utf8',
  });
}

function startServer(): Promise<ServerProcess> {
  return startServerProcess({ ...baseEnv, PORT: '0' });
}

test('first start prints a bootstrap token that works; SIGTERM stops cleanly', async () => {
  const server = await startServer();
  try {
    assert.match(server.token, /^cairn_/);
    const me = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${server.token}` } });
    assert.equal(me.status, 200);
    const body = await me.json();
    assert.equal(body.workspace.name, 'Default');
    assert.equal(body.role, 'owner');
    assert.ok(me.headers.get('x-request-id'));

    const team = await fetch(`${server.url}/v1/teams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Default Team' }),
    });
    assert.equal(team.status, 201);

    // A workspace made by the CLI sees none of the first one's teams, users or collections.
    const made = cli([
      'workspace',
      'create',
      '--name',
      'Second',
      '--owner-name',
      'Sam',
      '--owner-email',
      'sam@two.test',
    ]);
    assert.equal(made.status, 0, made.stderr);
    const created = JSON.parse(made.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['token', 'user', 'workspace']);
    assert.equal(created.workspace.name, 'Second');
    assert.equal(created.user.email, 'sam@two.test');
    const auth = { authorization: `Bearer ${created.token}` };
    const teams = await (await fetch(`${server.url}/v1/teams/search`, { headers: auth })).json();
    assert.deepEqual(teams.data, []);
    const users = await (await fetch(`${server.url}/v1/users`, { headers: auth })).json();
    assert.deepEqual(
      users.data.map((u: { email: string }) => u.email),
      ['sam@two.test'],
    );
    const collections = await (await fetch(`${server.url}/v1/collections`, { headers: auth })).json();
    assert.deepEqual(collections.data, []);
    const other = await fetch(`${server.url}/v1/teams/${(await team.json()).id}`, { headers: auth });
    assert.equal(other.status, 404);

    assert.ok(!server.output().includes(created.token), 'tokens never reach the logs');

    // An operator who lost a token makes another for an existing user; it works at once.
    const minted = cli(['token', 'create', '--user', 'SAM@two.test', '--workspace', created.workspace.id]);
    assert.equal(minted.status, 0, minted.stderr);
    const issued = JSON.parse(minted.stdout);
    assert.deepEqual(Object.keys(issued).sort(), ['id', 'token']);
    const meAgain = await fetch(`${server.url}/v1/me`, {
      headers: { authorization: `Bearer ${issued.token}` },
    });
    assert.equal((await meAgain.json()).email, 'sam@two.test');

    // `cairn seed` fills that workspace; the API then sees every seeded task, searchable.
    const seeded = cli(['seed', '--tasks', '600', '--workspace', created.workspace.id]);
    assert.equal(seeded.status, 0, seeded.stderr);
    const summary = JSON.parse(seeded.stdout);
    assert.deepEqual(
      [summary.workspaceId, summary.tasks, summary.teams, summary.documents, summary.posts],
      [created.workspace.id, 600, 5, 60, 3],
    );
    const docs = await (
      await fetch(`${server.url}/v1/documents/search?limit=1&expand=none`, { headers: auth })
    ).json();
    assert.equal(docs.total, 60);
    const thread = await (
      await fetch(`${server.url}/v1/posts/list?entityType=task&entityId=1&includeTotal=true`, {
        headers: auth,
      })
    ).json();
    assert.equal(thread.total, 1);
    const replies = await (
      await fetch(`${server.url}/v1/posts/${thread.data[0].id}/replies?includeTotal=true`, { headers: auth })
    ).json();
    assert.equal(replies.total, 2);
    const all = await (
      await fetch(`${server.url}/v1/tasks/search?includeDeleted=true&limit=1`, { headers: auth })
    ).json();
    assert.equal(all.total, 600);
    const live = await (
      await fetch(`${server.url}/v1/tasks/search?limit=100&expand=none`, { headers: auth })
    ).json();
    assert.ok(live.total < 600 && live.total > 550, `live tasks: ${live.total}`);
    const word = live.data[0].name.split(' ')[0];
    const found = await (
      await fetch(`${server.url}/v1/tasks/search?name=${encodeURIComponent(word)}`, { headers: auth })
    ).json();
    assert.ok(found.total > 0, `"${word}" finds seeded tasks`);
    const afterSeed = await fetch(`${server.url}/v1/tasks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the seed', teamId: live.data[0].teamId }),
    });
    assert.equal((await afterSeed.json()).publicId, 601, 'public ids continue after the seeded ones');
  } finally {
    server.child.kill('SIGTERM');
  }
  assert.equal(await server.exited, 0);
  assert.match(server.output(), /shutting down/);

  // A second start on the same database bootstraps nothing.
  const again = await startServer();
  again.child.kill('SIGTERM');
  assert.equal(await again.exited, 0);
  assert.equal(again.token, '');
});

test('the CLI refuses bad arguments with one line and exit code 2', () => {
  const nobody = cli(['token', 'create', '--user', 'nobody@nowhere.test']);
  assert.equal(nobody.status, 2);
  assert.match(nobody.stderr, /^cairn: no user with email nobody@nowhere.test/);
  const noUser = cli(['token', 'create']);
  assert.equal(noUser.status, 2);
  assert.match(noUser.stderr, /^cairn: token create needs --user EMAIL\n$/);
  const missing = cli(['workspace', 'create', '--name', 'X']);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr.trim().split('\n').length, 1);
  assert.match(missing.stderr, /^cairn: workspace create needs --name, --owner-name and --owner-email/);
  const email = cli(['workspace', 'create', '--name', 'X', '--owner-name', 'Y', '--owner-email', 'nope']);
  assert.equal(email.status, 2);
  assert.match(email.stderr, /is not an email address/);
  const unknown = cli(['frobnicate']);
  assert.equal(unknown.status, 2);
  const migrate = cli(['migrate']);
  assert.equal(migrate.status, 0, migrate.stderr);
  assert.deepEqual(JSON.parse(migrate.stdout).applied, []);
});

test('a bad setting stops the server with one line naming the variable', () => {
  const res = spawnSync(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: { ...baseEnv, PORT: 'eighty' },
    encoding: 'utf8',
  });
  assert.equal(res.status, 1);
  assert.equal(res.stderr, 'cairn: invalid PORT: "eighty" is not a whole number from 0 to 65535\n');
});

test('logs: one JSON line per request, level names, no duplicate keys, no secrets', async () => {
  const server = await startServer();
  const token = cli(['token', 'create', '--user', 'owner@localhost']);
  let secret = '';
  try {
    secret = JSON.parse(token.stdout).token;
    const auth = { authorization: `Bearer ${secret}` };
    assert.equal((await fetch(`${server.url}/v1/me`, { headers: auth })).status, 200);
    assert.equal((await fetch(`${server.url}/v1/teams/${randomUUID()}`, { headers: auth })).status, 404);
    assert.equal((await fetch(`${server.url}/v1/me`)).status, 401);
    // A one-time link's page: its token never reaches the log.
    await fetch(`${server.url}/invite/linktoken${'x'.repeat(30)}?from=mail`);
  } finally {
    server.child.kill('SIGTERM');
  }
  assert.equal(await server.exited, 0);
  // The first start's bootstrap lines are for a person; everything else is JSON.
  const lines = server
    .output()
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'));
  const entries = lines.map((line) => {
    const entry = JSON.parse(line);
    // A duplicate key would be lost by JSON.parse: the line written again is then shorter.
    assert.equal(JSON.stringify(entry).length, line.length, `a duplicate key in ${line}`);
    assert.equal(typeof entry.level, 'string', line);
    return entry;
  });
  const requests = entries.filter((e) => e.msg === 'request');
  assert.deepEqual(
    requests.map((e) => [e.level, e.method, e.route, e.status]),
    [
      ['info', 'GET', '/v1/me', 200],
      ['info', 'GET', '/v1/teams/:id', 404],
      ['info', 'GET', '/v1/me', 401],
      ['info', 'GET', null, 200],
    ],
  );
  for (const e of requests) assert.equal(typeof e.reqId, 'string');
  assert.ok(!server.output().includes('linktoken'), 'link tokens never reach the logs');
  assert.ok(requests.some((e) => e.url === '/invite/****?from=mail'));
  assert.equal(entries.filter((e) => /incoming request|request completed/.test(e.msg)).length, 0);
  assert.ok(secret && !server.output().includes(secret), 'tokens never reach the logs');
});

test('a database migrated by a newer Cairn: migrate --dry-run, migrate and the server refuse it, naming both', async () => {
  const dry = cli(['migrate', '--dry-run']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.deepEqual(JSON.parse(dry.stdout).pending, []);
  const database = openDatabase(databaseUrl);
  const future = '9999_from_a_newer_cairn';
  await sql`insert into kysely_migration (name, timestamp) values (${future}, ${new Date().toISOString()})`.execute(
    database.db,
  );
  try {
    const newest = MIGRATION_NAMES.at(-1);
    const message = `the database is at schema ${future}, made by a newer Cairn; this Cairn knows schemas up to ${newest}: run the newer Cairn, or restore a backup taken before the upgrade`;
    for (const args of [['migrate'], ['migrate', '--dry-run']]) {
      const refused = cli(args);
      assert.equal(refused.status, 1);
      assert.equal(refused.stderr, `cairn: ${message}\n`);
    }
    const server = spawnSync(process.execPath, ['src/main.ts'], {
      cwd: root,
      env: { ...baseEnv, PORT: '0' },
      encoding: 'utf8',
    });
    assert.equal(server.status, 1);
    assert.equal(server.stderr, `cairn: cannot prepare the database (${database.description}): ${message}\n`);
  } finally {
    await sql`delete from kysely_migration where name = ${future}`.execute(database.db);
    await database.close();
  }
});
