// `node bench/fresh.ts` (part of `npm run bench`): lists right after a bulk load, before any ANALYZE.
// A fresh database, 100,000 tasks (BENCH_FRESH_TASKS) loaded through the batch API into one project,
// then at once the lists users open first: the project's newest 50 with its total, the team's, and
// the workspace's newest. No statistics exist yet (autovacuum is off for the tasks table on
// PostgreSQL, so none arrive during the run), so this measures plans that the indexes' shape alone
// must choose (docs/performance.md).
//
// BENCH_DATABASE (sqlite, postgres, both), BENCH_SECONDS; BENCH_BASELINE=<checkout> runs the same on
// that checkout first, and prints both.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  cli,
  databaseUrl,
  log,
  measure,
  PG_ADMIN_URL,
  type Row,
  root,
  rotating,
  startServer,
} from './lib.ts';

const TASKS = Number(process.env.BENCH_FRESH_TASKS ?? 100_000);
const STREAMS = 4;

interface Fresh {
  url: string;
  cleanup(): Promise<void>;
}

async function freshDatabase(database: 'sqlite' | 'postgres', name: string): Promise<Fresh> {
  if (database === 'sqlite') {
    const path = join(root, '.bench', `fresh-${name}.db`);
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    };
    remove();
    return { url: `file:${path}`, cleanup: async () => remove() };
  }
  const db = `cairn_bench_fresh_${name}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${db} with (force)`);
  await admin.query(`create database ${db}`);
  const setup = new pg.Client({ connectionString: databaseUrl(db) });
  await setup.connect();
  await setup.query('create extension if not exists btree_gin');
  await setup.end();
  return {
    url: databaseUrl(db),
    cleanup: async () => {
      await admin.query(`drop database if exists ${db} with (force)`);
      await admin.end();
    },
  };
}

/** Autovacuum off for the tasks table, so that no ANALYZE gives the planner statistics mid-run. */
async function noAutoAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('alter table tasks set (autovacuum_enabled = false)');
  await client.end();
}

async function load(url: string, token: string) {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const team = await call('/v1/teams', { name: 'Fresh team' });
  const project = await call('/v1/projects?expand=none', { name: 'Fresh project', teamId: team.id });
  const started = Date.now();
  let next = 0;
  const stream = async () => {
    while (next < TASKS) {
      const from = next;
      next += 100;
      const tasks = Array.from({ length: Math.min(100, TASKS - from) }, (_, i) => ({
        name: `Fresh task ${from + i}`,
        teamId: team.id,
        projectId: project.id,
      }));
      await call('/v1/tasks/batch?expand=none', { tasks });
    }
  };
  await Promise.all(Array.from({ length: STREAMS }, stream));
  log(`  loaded ${TASKS} tasks through the batch API in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { teamId: team.id as string, projectId: project.id as string };
}

async function run(database: 'sqlite' | 'postgres', checkout: string, name: string): Promise<Row[]> {
  log(`\n== ${database}, ${checkout}: ${TASKS} tasks, then lists before any ANALYZE`);
  const fresh = await freshDatabase(database, name);
  try {
    cli(['migrate'], fresh.url, 'pipe', checkout);
    if (database === 'postgres') await noAutoAnalyze(fresh.url);
    const made = cli(
      ['workspace', 'create', '--name', 'Fresh', '--owner-name', 'Owner', '--owner-email', 'o@example.com'],
      fresh.url,
      'pipe',
      checkout,
    );
    const token = JSON.parse(made).token as string;
    const server = await startServer(fresh.url, 0, checkout);
    try {
      const { teamId, projectId } = await load(server.url, token);
      const cases = [
        { name: 'project: newest 50, total', path: `/v1/tasks/search?limit=50&projectId=${projectId}` },
        { name: 'team: newest 50, total', path: `/v1/tasks/search?limit=50&teamId=${teamId}` },
        { name: 'workspace: newest 50', path: '/v1/tasks/search?limit=50' },
      ];
      const rows: Row[] = [];
      for (const c of cases) {
        rows.push(await measure(server.url, token, { ...c, target: '', requests: rotating([c.path]) }, 1));
      }
      return rows;
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  } finally {
    await fresh.cleanup();
  }
}

const wanted = (process.env.BENCH_DATABASE ?? 'both').toLowerCase();
const baseline = process.env.BENCH_BASELINE;
const results: { label: string; rows: Row[] }[] = [];
for (const database of ['sqlite', 'postgres'] as const) {
  if (wanted !== 'both' && wanted !== database) continue;
  if (baseline) results.push({ label: `${database}, before`, rows: await run(database, baseline, 'before') });
  results.push({
    label: baseline ? `${database}, after` : database,
    rows: await run(database, root, 'after'),
  });
}
console.log(`\nCairn bench: lists right after loading ${TASKS} tasks (no statistics), 1 connection\n`);
console.log(
  `${'case'.padEnd(28)}${'database'.padEnd(22)}${'req/s'.padStart(8)}${'p50'.padStart(8)}${'p95'.padStart(8)}`,
);
for (const { label, rows } of results) {
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(28)}${label.padEnd(22)}${String(row.rps).padStart(8)}${row.p50.toFixed(1).padStart(8)}${row.p95.toFixed(1).padStart(8)}`,
    );
  }
}
process.exit(0);
