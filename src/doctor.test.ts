// `cairn doctor` (docs/operations.md): each finding made to happen, on the database of this pass, and
// the command's exit code and --json through the real CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, copyFileSync, openSync, statSync, writeSync } from 'node:fs';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { api, freePort, type Server, scratchDatabase, startServer, TOKEN } from '../scripts/servers.ts';
import { loadConfig } from './config.ts';
import { openDatabase, sqlitePath } from './db/index.ts';
import { MIGRATION_NAMES, migrateToLatest } from './db/migrate.ts';
import { doctor, type Finding } from './doctor.ts';
import { onPostgres } from './test/helpers.ts';

const root = new URL('..', import.meta.url).pathname;
const scratch = await scratchDatabase(
  onPostgres ? 'postgres' : 'sqlite',
  process.env.TEST_POSTGRES_URL ?? '',
);
after(() => scratch.drop());
const port = await freePort();
// Started by the healthy-install test, serving the later ones; stopped when the file ends.
let server: Server | undefined;
after(() => server?.stop());
const env = { DATABASE_URL: scratch.url, CAIRN_PUBLIC_URL: `http://127.0.0.1:${port}` };

async function findings(extra: Record<string, string> = {}, minFreeBytes = 0): Promise<Map<string, Finding>> {
  const list = await doctor(loadConfig({ ...env, ...extra }), { minFreeBytes, timeoutMs: 2000 });
  return new Map(list.map((f) => [f.check, f]));
}

function cli(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['src/cli.ts', 'doctor', ...args], {
    cwd: root,
    env: { ...process.env, ...env, ...extra },
    encoding: 'utf8',
  });
}

test('an empty database: every migration pending; the public URL not answering', async () => {
  // The server would create and migrate it; doctor only looks. SQLite: made here, empty.
  const empty = openDatabase(scratch.url);
  await sql`select 1`.execute(empty.db);
  await empty.close();
  const found = await findings();
  assert.equal(found.get('database')?.ok, true);
  assert.deepEqual(found.get('migrations'), {
    check: 'migrations',
    ok: false,
    message: `${MIGRATION_NAMES.length} migration(s) pending: ${MIGRATION_NAMES.join(', ')}`,
    fix: 'run `cairn migrate` (a server also migrates when it starts)',
  });
  assert.equal(found.has('webhooks'), false, 'checks that need the schema wait for it');
  const url = found.get('public url')!;
  assert.equal(url.ok, false);
  assert.match(
    url.message,
    new RegExp(`^http://127\\.0\\.0\\.1:${port}/healthz does not answer: .*ECONNREFUSED`),
  );
});

test('a database that cannot be reached is one finding with its fix', async () => {
  const unreachable = onPostgres
    ? `postgres://postgres:secret@127.0.0.1:${await freePort()}/nowhere`
    : `file:/nonexistent-${randomUUID()}/cairn.db`;
  const found = await findings({ DATABASE_URL: unreachable });
  const database = found.get('database')!;
  assert.equal(database.ok, false);
  assert.match(database.fix!, /DATABASE_URL/);
  assert.equal(found.has('migrations'), false);
  // The configuration is shown with the password masked.
  const shown = JSON.parse(found.get('configuration')!.message);
  if (onPostgres) assert.match(shown.databaseUrl, /^postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:/);
});

test('a healthy install: all ok, exit 0; secrets masked', async () => {
  const database = openDatabase(scratch.url);
  await migrateToLatest(database);
  await database.close();
  server = await startServer(scratch.url, port, { CAIRN_PUBLIC_URL: env.CAIRN_PUBLIC_URL });
  const run = cli(['--json', '--min-free-bytes', '0'], {
    CAIRN_BOOTSTRAP_TOKEN: TOKEN,
    REDIS_URL: 'redis://127.0.0.1:6379',
  });
  const report = JSON.parse(run.stdout);
  assert.deepEqual(
    report.findings.filter((f: Finding) => !f.ok),
    [],
  );
  assert.equal(run.status, 0);
  assert.equal(report.ok, true);
  const checks = report.findings.map((f: Finding) => f.check);
  assert.deepEqual(
    checks,
    onPostgres
      ? [
          'configuration',
          'database',
          'migrations',
          'postgresql pool',
          'webhooks',
          'clock',
          'redis',
          'public url',
        ]
      : [
          'configuration',
          'database',
          'migrations',
          'sqlite journal',
          'sqlite integrity',
          'disk space',
          'webhooks',
          'clock',
          'redis',
          'public url',
        ],
  );
  assert.ok(!run.stdout.includes(TOKEN), 'the bootstrap token is masked');
  assert.equal(JSON.parse(report.findings[0].message).bootstrapToken, '(set)');

  // The text form: a line a finding, its fix under it; exit 1 when any fails.
  const human = cli(['--min-free-bytes', '0'], { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  assert.equal(human.status, 1);
  assert.match(human.stdout, /^ok {3}database: /m);
  assert.match(
    human.stdout,
    /^FAIL redis: redis:\/\/127\.0\.0\.1:\d+ does not answer: .*\n {5}fix: start Redis or correct REDIS_URL/m,
  );
});

test('failing webhooks, a clock that went back, a newer schema', async () => {
  const base = `http://127.0.0.1:${port}`;
  const sub = await api(base, 'POST', '/v1/webhooks/subscribe', {
    hookUrl: `http://127.0.0.1:${await freePort()}/hook`,
    event: 'team.created',
  });
  assert.equal(sub?.status, 201);
  const database = openDatabase(scratch.url);
  const since = new Date(Date.now() - 3_600_000).toISOString();
  await database.db.updateTable('webhook_subscriptions').set({ failing_since: since }).execute();
  let found = await findings();
  assert.deepEqual(found.get('webhooks'), {
    check: 'webhooks',
    ok: false,
    message: `0 active, 1 failing, 0 disabled subscription(s); failing since ${since}`,
    fix: 'their receivers do not answer 2xx: the delivery log (GET /v1/webhooks/subscribe/{id}/deliveries) says why; they are disabled after 3 days',
  });

  assert.equal((await api(base, 'POST', '/v1/teams', { name: 'Doctor' }))?.status, 201);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  await database.db.updateTable('events').set({ created_at: future }).execute();
  found = await findings();
  assert.equal(found.get('clock')?.ok, false);
  assert.match(
    found.get('clock')!.message,
    new RegExp(`^the newest event is stamped ${future.replace('.', '\\.')}, after`),
  );

  await sql`insert into kysely_migration (name, timestamp) values ('9999_newer', ${future})`.execute(
    database.db,
  );
  found = await findings();
  assert.equal(found.get('migrations')?.ok, false);
  assert.match(
    found.get('migrations')!.message,
    /^the database is at schema 9999_newer, made by a newer Cairn/,
  );
  await sql`delete from kysely_migration where name = '9999_newer'`.execute(database.db);
  await database.close();
});

test('PostgreSQL: a pool too large for max_connections', {
  skip: !onPostgres && 'PostgreSQL only',
}, async () => {
  const found = await findings({ CAIRN_PG_POOL_SIZE: '1000' });
  const pool = found.get('postgresql pool')!;
  assert.equal(pool.ok, false);
  assert.match(pool.message, /CAIRN_PG_POOL_SIZE 1000 leaves room for 0 process\(es\)$/);
});

test('SQLite: the journal mode, the disk, a damaged file', {
  skip: onPostgres && 'SQLite only',
}, async () => {
  assert.equal((await findings({}, Number.MAX_SAFE_INTEGER)).get('disk space')?.ok, false);
  const path = sqlitePath(scratch.url);
  const copy = `${path}.copy`;
  // A copy, checkpointed into its main file, in rollback-journal mode (what an old tool may leave).
  const live = openDatabase(scratch.url);
  await sql`pragma wal_checkpoint(truncate)`.execute(live.db);
  await live.close();
  copyFileSync(path, copy);
  const { DatabaseSync } = await import('node:sqlite');
  const raw = new DatabaseSync(copy);
  raw.exec('pragma journal_mode = delete');
  raw.close();
  let found = await findings({ DATABASE_URL: `file:${copy}` });
  assert.equal(
    found.get('sqlite journal')?.message,
    'journal mode is delete, not WAL: readers wait for writers',
  );
  assert.equal(found.get('sqlite integrity')?.ok, true);
  // Garbage over a page in the middle of the file.
  const fd = openSync(copy, 'r+');
  const size = statSync(copy).size;
  writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, Math.floor(size / 2 / 4096) * 4096);
  closeSync(fd);
  found = await findings({ DATABASE_URL: `file:${copy}` });
  const integrity = found.get('sqlite integrity')!;
  assert.equal(integrity.ok, false);
  assert.match(integrity.fix!, /restore the latest backup/);
});
