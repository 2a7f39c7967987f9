// `npm run proof:transfer`: the move between databases, at size. A SQLite workspace of 100,000 tasks
// (TRANSFER_TASKS) with documents, posts and reactions, templates, deleted and archived items and
// webhook subscriptions with undelivered events is exported, imported into PostgreSQL and exported
// again; then that export goes back into a fresh SQLite database and out once more. Each pair of
// exports must hold the same rows (sorted: the databases number rows their own way). Prints the time
// and rate of every step; exits non-zero when any pair differs. Runs the real `cairn` commands.
// TRANSFER_PG_PREFIX names the PostgreSQL database (default cairn_proof_…).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/index.ts';
import { scratchDatabase } from './servers.ts';

const root = new URL('..', import.meta.url).pathname;
const TASKS = Number(process.env.TRANSFER_TASKS ?? 100_000);
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The PostgreSQL database's name starts with this (a random tail follows); it is dropped at the end. */
const PG_PREFIX = process.env.TRANSFER_PG_PREFIX ?? 'cairn_proof';
const dir = mkdtempSync(join(tmpdir(), 'cairn-transfer-'));

const log = (line: string) => process.stderr.write(`${line}\n`);

function cairn(databaseUrl: string, args: string[]): { out: string; seconds: number } {
  const started = performance.now();
  const res = spawnSync(process.execPath, ['src/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`cairn ${args.join(' ')} failed: ${res.stderr}`);
  return { out: res.stdout, seconds: (performance.now() - started) / 1000 };
}

/** Templates, deletions, archives, reactions and subscriptions with events still to deliver. */
async function enrich(databaseUrl: string, token: string): Promise<void> {
  const database = openDatabase(databaseUrl);
  const app = await buildApp({
    config: loadConfig({ CAIRN_RATE_LIMIT: '1000000', CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    database,
    logger: false,
  });
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      payload: payload as never,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : res.json();
  };
  try {
    const area = await call('POST', '/v1/areas', { name: 'Transfer area', publicId: 'XFER' });
    for (let i = 0; i < 20; i++)
      await call('POST', '/v1/task-templates', { name: `Template ${i}`, areaId: area.id });
    for (let i = 0; i < 10; i++) {
      const t = await call('POST', '/v1/project-templates', {
        name: `Plan ${i}`,
        ownedByAreaId: area.id,
        areaIds: [area.id],
      });
      if (i % 3 === 0) await call('DELETE', `/v1/project-templates/${t.id}`);
    }
    await call('POST', '/v1/webhooks/subscribe', {
      hookUrl: 'http://127.0.0.1:9/created',
      event: 'task.created',
    });
    const tasks = (await call('GET', '/v1/tasks/search?limit=100&expand=none')).data as { id: string }[];
    for (const [i, t] of tasks.entries()) {
      if (i % 4 === 0) await call('DELETE', `/v1/tasks/${t.id}`);
      else if (i % 4 === 1)
        await call('POST', '/v1/tasks?expand=none', { id: t.id, name: `Moved task ${i}` });
    }
    await call('POST', '/v1/webhooks/subscribe', {
      hookUrl: 'http://127.0.0.1:9/updated',
      event: 'task.updated',
    });
    const projects = (await call('GET', '/v1/projects/list?limit=5&expand=none')).data as { id: string }[];
    for (const p of projects.slice(0, 3)) await call('POST', `/v1/projects/${p.id}/archive`);
    const documents = (await call('GET', '/v1/documents/search?limit=50&expand=none')).data as {
      id: string;
    }[];
    for (const d of documents) await call('DELETE', `/v1/documents/${d.id}`);
    const posts = (await call('GET', '/v1/posts/list?entityType=task&entityId=1&limit=20')).data as {
      id: string;
    }[];
    for (const p of posts) {
      await call('POST', `/v1/posts/${p.id}/reactions`, { reaction: 'thumbsup' });
      await call('POST', '/v1/posts', {
        entityType: 'task',
        entityId: '1',
        parentId: p.id,
        content: 'Agreed',
      });
    }
    const team = (await call('GET', '/v1/teams/search?limit=1&expand=none')).data[0];
    for (let i = 0; i < 50; i++)
      await call('POST', '/v1/tasks?expand=none', { name: `Undelivered ${i}`, teamId: team.id });
  } finally {
    await app.close();
    await database.close();
  }
}

/** An export's rows (header and its time left out), sorted. */
function rowsOf(file: string): string[] {
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(1).sort();
}

function same(a: string, b: string, label: string): boolean {
  const x = rowsOf(a);
  const y = rowsOf(b);
  let differing = 0;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) {
      if (differing < 3)
        log(`  ${label}: first differences:\n    ${x[i]?.slice(0, 300)}\n    ${y[i]?.slice(0, 300)}`);
      differing += 1;
    }
  }
  log(
    `${label}: ${x.length.toLocaleString('en')} rows against ${y.length.toLocaleString('en')}, ${differing} differ`,
  );
  return differing === 0;
}

const rate = (rows: number, seconds: number) => `${Math.round(rows / seconds).toLocaleString('en')} rows/s`;
const size = (file: string) => `${(statSync(file).size / 1024 / 1024).toFixed(0)} MB`;

const first = `file:${join(dir, 'first.db')}`;
const pgDb = await scratchDatabase('postgres', ADMIN_URL, PG_PREFIX);
const back = `file:${join(dir, 'back.db')}`;
let held = false;
try {
  const made = JSON.parse(
    cairn(first, [
      'workspace',
      'create',
      '--name',
      'Transfer',
      '--owner-name',
      'Ada',
      '--owner-email',
      'ada@x.test',
    ]).out,
  );
  const seeded = cairn(first, ['seed', '--tasks', String(TASKS)]);
  log(`seeded ${TASKS.toLocaleString('en')} tasks on SQLite in ${seeded.seconds.toFixed(0)} s`);
  await enrich(first, made.token);

  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  const c = join(dir, 'c.jsonl');
  const step = (label: string, url: string, args: string[]) => {
    const { out, seconds } = cairn(url, args);
    const result = JSON.parse(out);
    log(
      `${label}: ${result.rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s (${rate(result.rows, seconds)})`,
    );
    return result;
  };
  step('export SQLite', first, ['export', '--out', a]);
  log(`  file: ${size(a)}`);
  step('import into PostgreSQL', pgDb.url, ['import', a]);
  step('export PostgreSQL', pgDb.url, ['export', '--out', b]);
  const there = same(a, b, 'SQLite → PostgreSQL');
  step('import into SQLite', back, ['import', b]);
  step('export SQLite again', back, ['export', '--out', c]);
  const andBack = same(b, c, 'PostgreSQL → SQLite');
  held = there && andBack;
} finally {
  await pgDb.drop();
  rmSync(dir, { recursive: true, force: true });
}
log(`proof:transfer ${held ? 'passed' : 'FAILED'}`);
process.exit(held ? 0 : 1);
