// `cairn backup` / `cairn restore` (SQLite's online backup API) and the CLI side of export and import,
// through the real command. Always on SQLite: backup and restore are SQLite's; PostgreSQL has pg_dump.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { setup } from '../test/helpers.ts';
import { BackupError, backupSqlite, checkSqliteFile } from './backup.ts';
import { openDatabase } from './index.ts';

const run = promisify(execFile);
const f = await setup('sqlite');
const path = f.database.description.slice('sqlite:'.length);
const dir = mkdtempSync(join(tmpdir(), 'cairn-backup-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const team = (await f.owner.post('/v1/teams', { name: 'Ops' })).body;

async function cairn(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: `file:${path}`, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('a backup taken while the server writes is a consistent copy of what was committed', async () => {
  let writing = true;
  let written = 0;
  const writer = (async () => {
    while (writing) {
      const res = await f.owner.post('/v1/tasks?expand=none', {
        name: `During backup ${written}`,
        teamId: team.id,
      });
      assert.equal(res.status, 201);
      written += 1;
    }
  })();
  // Some creates committed before the copy starts (a route's first request compiles its schemas).
  for (let i = 0; written < 3 && i < 1000; i++) await new Promise((r) => setTimeout(r, 10));
  const before = written;
  const out = join(dir, 'live.db');
  const done = await backupSqlite(path, out);
  writing = false;
  await writer;
  assert.ok(done.pages > 0);
  assert.equal(done.schema, checkSqliteFile(out));
  const copy = openDatabase(`file:${out}`);
  try {
    const tasks = await copy.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.ok(Number(tasks.n) >= before && Number(tasks.n) <= written, `${tasks.n} of ${before}..${written}`);
    const counters = await copy.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', `tasks.team.${team.id}`)
      .executeTakeFirstOrThrow();
    assert.equal(
      Number(counters.value),
      Number(tasks.n),
      'the copy is one committed state, counters and rows',
    );
  } finally {
    await copy.close();
  }
});

test('cairn backup writes the file; restore refuses to replace workspaces without --force', async () => {
  const out = join(dir, 'cli.db');
  const made = await cairn(['backup', '--out', out]);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(JSON.parse(made.stdout).out, out);

  const target = join(dir, 'restored.db');
  const fresh = await cairn(['restore', out], { DATABASE_URL: `file:${target}` });
  assert.equal(fresh.code, 0, fresh.stderr);
  const again = await cairn(['restore', out], { DATABASE_URL: `file:${target}` });
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    /holds 1 workspace\(s\), which restore replaces: stop the server, then run again with --force/,
  );
  // A server holding the database (here a connection of this process) stops even --force.
  const held = openDatabase(`file:${target}`);
  await held.db.selectFrom('workspaces').select('id').execute();
  const underServer = await cairn(['restore', out, '--force'], { DATABASE_URL: `file:${target}` });
  await held.close();
  assert.equal(underServer.code, 1);
  assert.equal(
    underServer.stderr,
    `cairn: the database at ${target} is open in another process (a running server?): stop it, then run restore again\n`,
  );
  const forced = await cairn(['restore', out, '--force'], { DATABASE_URL: `file:${target}` });
  assert.equal(forced.code, 0, forced.stderr);
  const restored = openDatabase(`file:${target}`);
  try {
    const ws = await restored.db.selectFrom('workspaces').select('id').execute();
    assert.deepEqual(
      ws.map((w) => w.id),
      [f.ws.workspace.id],
    );
  } finally {
    await restored.close();
  }
});

test('restore refuses a file that is not an intact Cairn database', async () => {
  const junk = join(dir, 'junk.db');
  writeFileSync(junk, 'not a database at all, just text '.repeat(200));
  assert.throws(() => checkSqliteFile(junk), BackupError);
  const res = await cairn(['restore', junk], { DATABASE_URL: `file:${join(dir, 'never.db')}` });
  assert.equal(res.code, 1);
  assert.match(res.stderr, /^cairn: .*junk\.db is not a SQLite database/);
});

test('backup and restore on PostgreSQL point to pg_dump', async () => {
  const res = await cairn(['backup', '--out', join(dir, 'x')], {
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  });
  assert.equal(res.code, 1);
  assert.match(res.stderr, /on PostgreSQL use pg_dump and pg_restore/);
});

test('cairn export and import: progress on stderr, one JSON line on stdout, a cut file refused', async () => {
  const file = join(dir, 'all.jsonl');
  const exported = await cairn(['export', '--out', file]);
  assert.equal(exported.code, 0, exported.stderr);
  const summary = JSON.parse(exported.stdout);
  assert.equal(summary.out, file);
  assert.equal(summary.workspaces, 1);
  assert.match(exported.stderr, /^export: Acme: tasks \d+ rows$/m);

  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const cut = join(dir, 'cut.jsonl');
  writeFileSync(cut, `${lines.slice(0, -1).join('\n')}\n`);
  const target = `file:${join(dir, 'imported.db')}`;
  const refused = await cairn(['import', cut], { DATABASE_URL: target });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /cairn: the file ends at line \d+ without its end line: it was cut short/);

  const loaded = await cairn(['import', file], { DATABASE_URL: target });
  assert.equal(loaded.code, 0, loaded.stderr);
  assert.deepEqual(JSON.parse(loaded.stdout).imported, [f.ws.workspace.id]);
  assert.match(
    loaded.stderr,
    /^import: one transaction holds the database's write lock until the import ends;/,
  );
  const twice = await cairn(['import', file], { DATABASE_URL: target });
  assert.deepEqual(JSON.parse(twice.stdout).skipped, [f.ws.workspace.id]);
  assert.match(twice.stderr, /is already in this database: skipped/);

  const missing = await cairn([
    'export',
    '--out',
    join(dir, 'none.jsonl'),
    '--workspace',
    '00000000-0000-4000-8000-000000000000',
  ]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no workspace 00000000-0000-4000-8000-000000000000/);
  assert.throws(() => readFileSync(join(dir, 'none.jsonl.partial')), 'a failed export leaves no file');
});
