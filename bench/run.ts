// `npm run bench`: HTTP load against a real server with a seeded workspace (1,000,000 tasks by default;
// BENCH_TASKS to change), on SQLite and on PostgreSQL (BENCH_DATABASE=sqlite|postgres|both, default
// both; PostgreSQL at BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres). Prints,
// per database, requests/s, p50/p95/p99 latency and errors per case and the server's peak RSS, then
// the two side by side.
//
// The seeded data is kept between runs and every run works on a fresh copy of it: SQLite's in
// .bench/, PostgreSQL's as a template database copied with CREATE DATABASE … TEMPLATE.
//
// Targets (issue 8, 2-core machine, one connection p95): see docs/performance.md.
//
// BENCH_PROCESSES=1,2,3 (`npm run bench:processes`, PostgreSQL) measures instead how throughput
// scales with server processes: the read and write cases at BENCH_CONNECTIONS connections against
// `npm run start:cluster -- --workers N` for each N.
//
// BENCH_BASELINE=<path of another checkout> (with `node bench/run.ts`) measures that checkout's server
// beside this one's in the same run: each on its own copy of the same seed, case by case in turns
// (one connection on the baseline, then on this one; then the load on each), and prints the two side
// by side. A change made for speed, or one that must not cost any, is judged from such a run rather
// than from two runs hours apart on a shared machine. The baseline checkout needs its own
// node_modules (or a link to these).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// Latency is measured with one connection (a busy single-threaded server mostly measures its queue);
// throughput with several.
const LOAD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
// Bumped whenever `cairn seed` makes different data, so an old seeded copy is not reused.
// 3: a task's tsvectors written with its INSERT (no dead row versions on PostgreSQL).
// 4: documents (one per ten tasks) and a busy thread of posts on task 1.
const SEED_VERSION = 4;
const PG_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dir = join(root, '.bench');

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

function cli(args: string[], databaseUrl: string, stdio: 'inherit' | 'pipe' = 'inherit') {
  const result = spawnSync(process.execPath, ['src/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', stdio === 'pipe' ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cairn ${args.join(' ')} failed`);
  return result.stdout ?? '';
}

/** Migrates, makes the bench workspace and seeds it; returns the owner's token. */
function seedInto(databaseUrl: string): string {
  log(`seeding ${TASKS} tasks …`);
  cli(['migrate'], databaseUrl);
  const made = cli(
    [
      'workspace',
      'create',
      '--name',
      'Bench',
      '--owner-name',
      'Bench Owner',
      '--owner-email',
      'bench@example.com',
    ],
    databaseUrl,
    'pipe',
  );
  cli(['seed', '--tasks', String(TASKS)], databaseUrl);
  return JSON.parse(made).token;
}

interface Prepared {
  databaseUrl: string;
  token: string;
  cleanup(): Promise<void>;
}

/** SQLite: seeded once into .bench/, copied for each run (the create cases add tens of thousands of tasks). */
async function prepareSqlite(copy = 'run'): Promise<Prepared> {
  const seeded = join(dir, `cairn-v${SEED_VERSION}-${TASKS}.seeded.db`);
  const run = join(dir, `cairn-v${SEED_VERSION}-${TASKS}.${copy}.db`);
  const tokenPath = `${seeded}.token`;
  if (!existsSync(seeded) || !existsSync(tokenPath)) {
    mkdirSync(dir, { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(seeded + suffix, { force: true });
    const token = seedInto(`file:${seeded}`);
    // Fold the WAL into the file so that a plain copy is the whole database.
    spawnSync(process.execPath, [
      '-e',
      `new (require('node:sqlite').DatabaseSync)(${JSON.stringify(seeded)}).exec('pragma wal_checkpoint(truncate)')`,
    ]);
    writeFileSync(tokenPath, token);
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(run + suffix, { force: true });
  copyFileSync(seeded, run);
  return {
    databaseUrl: `file:${run}`,
    token: readFileSync(tokenPath, 'utf8').trim(),
    cleanup: async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(run + suffix, { force: true });
    },
  };
}

function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** PostgreSQL: seeded once into a template database, which each run copies. */
async function preparePostgres(copy = 'run'): Promise<Prepared> {
  const template = `cairn_bench_v${SEED_VERSION}_${TASKS}`;
  const run = `${template}_${copy}`;
  const tokenPath = join(dir, `${template}.token`);
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const exists = async (name: string) =>
    (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!(await exists(template)) || !existsSync(tokenPath)) {
    mkdirSync(dir, { recursive: true });
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const setup = new pg.Client({ connectionString: databaseUrl(template) });
    await setup.connect();
    await setup.query('create extension if not exists btree_gin');
    await setup.end();
    const started = Date.now();
    const token = seedInto(databaseUrl(template));
    log(`seeded PostgreSQL in ${Math.round((Date.now() - started) / 1000)} s; vacuum analyze …`);
    const vacuum = new pg.Client({ connectionString: databaseUrl(template) });
    await vacuum.connect();
    await vacuum.query('vacuum analyze');
    await vacuum.end();
    writeFileSync(tokenPath, token);
  }
  await admin.query(`drop database if exists ${run}`);
  await admin.query(`create database ${run} template ${template}`);
  return {
    databaseUrl: databaseUrl(run),
    token: readFileSync(tokenPath, 'utf8').trim(),
    cleanup: async () => {
      await admin.query(`drop database if exists ${run} with (force)`);
      await admin.end();
    },
  };
}

// The server runs exactly as `npm start` runs it (same Node flags), minus npm itself, so that its
// pid is the server's own and its memory can be read.
const START_ARGS: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  .scripts.start.split(/\s+/)
  .slice(1);

async function startServer(
  url: string,
  workers = 0,
  cwd = root,
): Promise<{ child: ChildProcess; url: string }> {
  // workers > 0: the cluster script, whose workers all listen on the one port PORT=0 picked.
  const args =
    workers > 0 ? [...START_ARGS.slice(0, -1), 'src/cluster.ts', '--workers', String(workers)] : START_ARGS;
  const child = spawn(process.execPath, args, {
    cwd,
    // The bench measures capacity, not the per-token budget (1,000 a minute by default).
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: '0',
      LOG_LEVEL: 'info',
      CAIRN_RATE_LIMIT: '1000000',
      CAIRN_RATE_LIMIT_SEARCH: '1000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  for (let i = 0; i < 400; i++) {
    const m = /Server listening at (http:\/\/[^"]+)/.exec(out);
    if (m) return { child, url: m[1]! };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${out}`);
}

/** The server's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
function rssMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Case {
  name: string;
  target: string;
  requests: autocannon.Request[];
  /** Whose token the requests carry (default: the workspace owner's). */
  token?: string;
}

interface Row {
  name: string;
  target: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(url: string, token: string, c: Case, connections: number): Promise<Row> {
  const latencies: number[] = [];
  let errors = 0;
  // Without a callback autocannon returns a promise that is also its event emitter.
  const instance = autocannon({
    url,
    connections,
    duration: SECONDS,
    headers: { authorization: `Bearer ${c.token ?? token}`, 'content-type': 'application/json' },
    requests: c.requests,
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    if (status >= 400) errors += 1;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    name: c.name,
    target: c.target,
    rps: Math.round(result.requests.average),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: errors + result.errors + result.timeouts,
  };
}

function rotating(
  paths: string[],
  method: 'GET' | 'POST' = 'GET',
  bodies?: () => string,
): autocannon.Request[] {
  let i = 0;
  return [
    {
      method,
      setupRequest: (req) => {
        const path = paths[i++ % paths.length]!;
        return { ...req, method, path, ...(bodies ? { body: bodies() } : {}) };
      },
    },
  ];
}

/** The cases, built from what the seeded workspace holds. */
async function casesFor(url: string, token: string, databaseUrl: string): Promise<Case[]> {
  const api = async (path: string) => {
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const total = async (qs: string) =>
    (await api(`/v1/tasks/search?limit=1&expand=none&${qs}`)).total as number;
  const closest = async <T>(items: T[], count: (t: T) => Promise<number>, wanted: number) => {
    const counted = await Promise.all(items.map(async (item) => ({ item, n: await count(item) })));
    return counted.sort((a, b) => Math.abs(a.n - wanted) - Math.abs(b.n - wanted))[0]!;
  };
  const teams = (await api('/v1/teams/search?limit=100&expand=none')).data as { id: string }[];
  const team = await closest(teams, (t) => total(`teamId=${t.id}`), 40_000);
  const projects = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => api(`/v1/projects/${n}?expand=none`)));
  const project = await closest(projects as { id: string }[], (p) => total(`projectId=${p.id}`), 20_000);
  log(`list cases: a team of ${team.n} tasks, a project of ${project.n}`);
  // A member of that team (not an owner or admin): their totals are counted, not read from counters.
  const members = (await api(`/v1/teams/${team.item.id}?expand=members`)).members as { id: string }[];
  type Person = { id: string; email: string; role: string };
  let member: Person | undefined;
  for (let cursor = ''; !member; ) {
    const page = await api(`/v1/users?limit=100${cursor}`);
    member = (page.data as Person[]).find((u) => u.role === 'member' && members.some((m) => m.id === u.id));
    if (!page.hasMore && !member) throw new Error('the bench team has no member with the member role');
    cursor = `&cursor=${page.nextCursor}`;
  }
  const memberToken = JSON.parse(cli(['token', 'create', '--user', member.email], databaseUrl, 'pipe')).token;
  // Task ids to read: one page of the walk.
  const sample = (await api('/v1/tasks/search?limit=100&expand=none')).data.map((t: { id: string }) => t.id);
  // Search words: the 6th and 40th most frequent words of the seed vocabulary (about 12 % and 2 % of names).
  const { WORDS } = await import('../src/seed/vocabulary.ts');
  const common = WORDS[5];
  const other = WORDS[40];
  log(`"${common}" is in ${await total(`name=${common}`)} of ${TASKS} task names`);
  // A walk 50 pages deep (limit 50) through the text-free search.
  let cursor = '';
  for (let page = 1; page < 50; page++) {
    cursor = (await api(`/v1/tasks/search?limit=50&expand=none${cursor ? `&cursor=${cursor}` : ''}`))
      .nextCursor;
  }
  const documents = (await api(`/v1/documents/search?limit=1&expand=none&name=${common}`)).total;
  const thread = (await api('/v1/posts/list?entityType=task&entityId=1&limit=1&includeTotal=true')).total;
  log(`"${common}" is in ${documents} document names; task 1 has ${thread} top-level posts`);
  let n = 0;
  return [
    {
      name: 'get task (expand=all)',
      target: 'p95 ≤ 1 / 3 ms',
      requests: rotating(sample.map((id: string) => `/v1/tasks/${id}`)),
    },
    {
      name: 'create task',
      target: 'p95 ≤ 3 / 6 ms',
      requests: rotating(['/v1/tasks'], 'POST', () =>
        JSON.stringify({
          name: `Bench task ${n++} ${common}`,
          teamId: team.item.id,
          description: 'made by the bench',
        }),
      ),
    },
    {
      name: 'batch of 100 creates',
      target: 'p95 ≤ 50 / 120 ms',
      requests: rotating(['/v1/tasks/batch?expand=none'], 'POST', () =>
        JSON.stringify({
          tasks: Array.from({ length: 100 }, () => ({ name: `Batch task ${n++}`, teamId: team.item.id })),
        }),
      ),
    },
    {
      name: `search one word ("${common}")`,
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/tasks/search?name=${common}`]),
    },
    {
      name: 'search two fields, any',
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/tasks/search?name=${other}&description=${common}&matchMode=any`]),
    },
    { name: 'list: first page', target: '= deep page', requests: rotating(['/v1/tasks/search?limit=50']) },
    {
      name: 'list: page 50 of a walk',
      target: '= first page',
      requests: rotating([`/v1/tasks/search?limit=50&cursor=${cursor}`]),
    },
    {
      name: `list by team (${Math.round(team.n / 1000)}k)`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/tasks/search?limit=50&teamId=${team.item.id}`]),
    },
    {
      name: `list by team, as a member`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/tasks/search?limit=50&teamId=${team.item.id}`]),
      token: memberToken,
    },
    {
      name: `list by project (${Math.round(project.n / 1000)}k)`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/tasks/search?limit=50&projectId=${project.item.id}`]),
    },
    { name: 'projects list: first page', target: '', requests: rotating(['/v1/projects/list?limit=50']) },
    {
      name: `documents: search one word`,
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/documents/search?name=${common}`]),
    },
    {
      name: 'documents: by team, total',
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/documents/search?limit=50&teamId=${team.item.id}`]),
    },
    {
      name: 'documents: by team, as a member',
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/documents/search?limit=50&teamId=${team.item.id}`]),
      token: memberToken,
    },
    {
      name: `posts list: busy task (${Math.round(thread / 100) / 10}k)`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating(['/v1/posts/list?entityType=task&entityId=1&limit=50&includeTotal=true']),
    },
    {
      name: 'projects list by team, total',
      target: '',
      requests: rotating([`/v1/projects/list?limit=50&includeTotal=true&teamId=${team.item.id}`]),
    },
  ];
}

interface Table {
  database: string;
  rows: [Row, Row][];
  peakRss: number;
}

async function bench(database: 'sqlite' | 'postgres'): Promise<Table> {
  log(`\n== ${database}`);
  const prepared = database === 'sqlite' ? await prepareSqlite() : await preparePostgres();
  const { child, url } = await startServer(prepared.databaseUrl);
  try {
    const cases = selected(await casesFor(url, prepared.token, prepared.databaseUrl));
    const rows: [Row, Row][] = [];
    for (const c of cases) {
      log(`running ${c.name}: ${SECONDS} s with 1 connection, ${SECONDS} s with ${LOAD_CONNECTIONS}`);
      rows.push([
        await measure(url, prepared.token, c, 1),
        await measure(url, prepared.token, c, LOAD_CONNECTIONS),
      ]);
      const rss = rssMb(child.pid!);
      log(`  server RSS after it: ${rss.now.toFixed(0)} MB (peak so far ${rss.peak.toFixed(0)} MB)`);
    }
    return { database, rows, peakRss: rssMb(child.pid!).peak };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await prepared.cleanup();
  }
}

const ms = (v: number) => v.toFixed(1).padStart(7);

function print(t: Table): void {
  console.log(`\nCairn bench: ${TASKS} tasks on ${t.database}, ${SECONDS} s a run\n`);
  console.log(
    `${'case'.padEnd(32)}${'1 conn: req/s'.padStart(14)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}` +
      `${`${LOAD_CONNECTIONS} conn: req/s`.padStart(15)}${'p95'.padStart(8)}${'errors'.padStart(8)}  target (SQLite / PostgreSQL)`,
  );
  for (const [one, load] of t.rows) {
    console.log(
      `${one.name.padEnd(32)}${String(one.rps).padStart(14)}${ms(one.p50)} ${ms(one.p95)} ${ms(one.p99)}` +
        `${String(load.rps).padStart(15)}${ms(load.p95)} ${String(one.errors + load.errors).padStart(7)}  ${one.target}`,
    );
  }
  console.log(`\nlatencies in ms; server peak RSS: ${t.peakRss.toFixed(0)} MB (target ≤ 300 MB)`);
}

/** Cases measured against 1, 2, 3… processes: reads, a search, a list, and writes. */
const SCALING = ['get task (expand=all)', 'create task', 'list by team', 'search one word'];

async function scaling(database: 'sqlite' | 'postgres', counts: number[]): Promise<void> {
  log(`\n== ${database}: throughput by server processes (${counts.join(', ')})`);
  const results: { processes: number; rows: Row[] }[] = [];
  for (const processes of counts) {
    // A fresh copy for each count: the creates of one run would otherwise grow the next one's data.
    const prepared = database === 'sqlite' ? await prepareSqlite() : await preparePostgres();
    const { child, url } = await startServer(prepared.databaseUrl, processes);
    try {
      const cases = (await casesFor(url, prepared.token, prepared.databaseUrl)).filter((c) =>
        SCALING.some((name) => c.name.startsWith(name)),
      );
      const rows: Row[] = [];
      for (const c of cases) {
        log(`${processes} process(es), ${c.name}: ${SECONDS} s with ${LOAD_CONNECTIONS} connections`);
        rows.push(await measure(url, prepared.token, c, LOAD_CONNECTIONS));
      }
      results.push({ processes, rows });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await prepared.cleanup();
    }
  }
  console.log(
    `\nCairn bench: ${TASKS} tasks on ${database}, ${LOAD_CONNECTIONS} connections, req/s (p95 ms)\n`,
  );
  console.log(
    `${'case'.padEnd(32)}${results.map((r) => `${r.processes} process${r.processes > 1 ? 'es' : ''}`.padStart(18)).join('')}`,
  );
  results[0]!.rows.forEach((row, i) => {
    const cells = results.map((r) => `${r.rows[i]!.rps} (${r.rows[i]!.p95.toFixed(0)})`.padStart(18));
    const errors = results.reduce((sum, r) => sum + r.rows[i]!.errors, 0);
    console.log(`${row.name.padEnd(32)}${cells.join('')}${errors > 0 ? `  errors: ${errors}` : ''}`);
  });
}

/** BENCH_CASES=<regular expression>: only the cases whose name it finds, to repeat a doubtful figure. */
function selected(cases: Case[]): Case[] {
  const pattern = process.env.BENCH_CASES;
  return pattern ? cases.filter((c) => new RegExp(pattern).test(c.name)) : cases;
}

/** Both servers up at once on copies of one seed; each case measured on the baseline, then on this one. */
async function compare(database: 'sqlite' | 'postgres', baseline: string): Promise<void> {
  log(`\n== ${database}: ${baseline} (before) beside ${root} (after)`);
  const prepare = database === 'sqlite' ? prepareSqlite : preparePostgres;
  const copies = [await prepare('before'), await prepare('after')];
  const servers = [
    await startServer(copies[0]!.databaseUrl, 0, baseline),
    await startServer(copies[1]!.databaseUrl, 0, root),
  ];
  try {
    const [before, after] = [
      selected(await casesFor(servers[0]!.url, copies[0]!.token, copies[0]!.databaseUrl)),
      selected(await casesFor(servers[1]!.url, copies[1]!.token, copies[1]!.databaseUrl)),
    ];
    console.log(`\nCairn bench: ${TASKS} tasks on ${database}, ${SECONDS} s a run; before → after\n`);
    console.log(
      `${'case'.padEnd(32)}${'1 conn p95'.padStart(18)}${'1 conn req/s'.padStart(16)}` +
        `${`${LOAD_CONNECTIONS} conn req/s`.padStart(18)}${'errors'.padStart(8)}`,
    );
    for (const [i, c] of after.entries()) {
      log(`running ${c.name}: before and after, 1 and ${LOAD_CONNECTIONS} connections`);
      const rows: Row[] = [];
      // One connection on both, then the load on both. After each run, a pause as long as its slowest
      // requests: a request autocannon stopped waiting for may still be running in the database, and
      // would otherwise land on the other server's run (seen: PostgreSQL searches at 8 connections).
      for (const connections of [1, LOAD_CONNECTIONS]) {
        for (const [s, cases] of [before, after].entries()) {
          const row = await measure(servers[s]!.url, copies[s]!.token, cases[i]!, connections);
          rows.push(row);
          await new Promise((r) => setTimeout(r, Math.max(500, 1.5 * row.p99)));
        }
      }
      const [one0, one1, load0, load1] = rows as [Row, Row, Row, Row];
      const pair = (a: string, b: string, width: number) => `${a} → ${b}`.padStart(width);
      console.log(
        `${c.name.padEnd(32)}${pair(one0.p95.toFixed(1), one1.p95.toFixed(1), 18)}` +
          `${pair(String(one0.rps), String(one1.rps), 16)}${pair(String(load0.rps), String(load1.rps), 18)}` +
          `${String(rows.reduce((sum, r) => sum + r.errors, 0)).padStart(8)}`,
      );
    }
    const peaks = servers.map((s) => rssMb(s.child.pid!).peak.toFixed(0));
    console.log(`${'server peak RSS, MB'.padEnd(32)}${`${peaks[0]} → ${peaks[1]}`.padStart(18)}`);
  } finally {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
    }
    for (const copy of copies) await copy.cleanup();
  }
}

const wanted = (process.env.BENCH_DATABASE ?? 'both').toLowerCase();
if (process.env.BENCH_PROCESSES) {
  const counts = process.env.BENCH_PROCESSES.split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new Error('BENCH_PROCESSES is like 1,2,3');
  if (wanted !== 'postgres') await scaling('sqlite', counts);
  if (wanted !== 'sqlite') await scaling('postgres', counts);
  process.exit(0);
}
if (!['sqlite', 'postgres', 'both'].includes(wanted))
  throw new Error('BENCH_DATABASE is sqlite, postgres or both');
if (process.env.BENCH_BASELINE) {
  const baseline = process.env.BENCH_BASELINE;
  if (!existsSync(join(baseline, 'src/main.ts'))) throw new Error('BENCH_BASELINE is the path of a checkout');
  if (wanted !== 'postgres') await compare('sqlite', baseline);
  if (wanted !== 'sqlite') await compare('postgres', baseline);
  process.exit(0);
}
const tables: Table[] = [];
if (wanted !== 'postgres') tables.push(await bench('sqlite'));
if (wanted !== 'sqlite') tables.push(await bench('postgres'));
for (const t of tables) print(t);
if (tables.length === 2) {
  const [a, b] = tables as [Table, Table];
  console.log('\nSide by side, one connection:\n');
  console.log(
    `${'case'.padEnd(32)}${'SQLite r/s'.padStart(11)}${'p95'.padStart(8)}${'PostgreSQL r/s'.padStart(16)}${'p95'.padStart(8)}`,
  );
  a.rows.forEach(([one], i) => {
    const other = b.rows[i]![0];
    console.log(
      `${one.name.padEnd(32)}${String(one.rps).padStart(11)}${ms(one.p95)} ${String(other.rps).padStart(15)}${ms(other.p95)}`,
    );
  });
  console.log(
    `${'peak RSS, MB'.padEnd(32)}${a.peakRss.toFixed(0).padStart(11)}${''.padStart(8)} ${b.peakRss.toFixed(0).padStart(15)}`,
  );
}
