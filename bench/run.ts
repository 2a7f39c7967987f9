// `npm run bench`: HTTP load against a real server on SQLite with a seeded workspace (1,000,000 tasks
// by default; BENCH_TASKS to change). Prints requests/s, p50/p95/p99 latency and errors per case, and
// the server's peak RSS. The seeded database is kept in .bench/ and reused while the seed matches.
//
// Targets (issue 3, 2-core machine): search p95 ≤ 30 ms; get and create p95 ≤ 5 ms; batch of 100
// p95 ≤ 60 ms; a page deep in a walk as fast as the first; RSS ≤ 300 MB.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

const root = new URL('..', import.meta.url).pathname;
const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// Latency is measured with one connection (a busy single-threaded server mostly measures its queue);
// throughput with several.
const LOAD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const dir = join(root, '.bench');
// The seeded database is kept pristine; each run works on a fresh copy, since the create cases add
// tens of thousands of tasks and runs must be comparable.
const seededPath = join(dir, `cairn-${TASKS}.seeded.db`);
const dbPath = join(dir, `cairn-${TASKS}.run.db`);
const tokenPath = `${seededPath}.token`;
const seedEnv = { ...process.env, DATABASE_URL: `file:${seededPath}`, LOG_LEVEL: 'warn' };
const env = { ...process.env, DATABASE_URL: `file:${dbPath}`, LOG_LEVEL: 'warn' };

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

/** Seeds the database once (kept in .bench/), and returns the bench workspace owner's token. */
function prepareDatabase(): string {
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  if (!existsSync(seededPath) || !existsSync(tokenPath)) seedDatabase();
  copyFileSync(seededPath, dbPath);
  log(`working on a copy of ${seededPath}`);
  return readFileSync(tokenPath, 'utf8').trim();
}

function seedDatabase(): void {
  mkdirSync(dir, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(seededPath + suffix, { force: true });
  log(`seeding ${TASKS} tasks into ${seededPath} …`);
  const migrate = spawnSync(process.execPath, ['src/cli.ts', 'migrate'], {
    cwd: root,
    env: seedEnv,
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrate failed');
  const made = spawnSync(
    process.execPath,
    [
      'src/cli.ts',
      'workspace',
      'create',
      '--name',
      'Bench',
      '--owner-name',
      'Bench Owner',
      '--owner-email',
      'bench@example.com',
    ],
    { cwd: root, env: seedEnv, encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(made.stderr);
  const token: string = JSON.parse(made.stdout).token;
  const seeded = spawnSync(process.execPath, ['src/cli.ts', 'seed', '--tasks', String(TASKS)], {
    cwd: root,
    env: seedEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (seeded.status !== 0) throw new Error('seed failed');
  // Fold the WAL into the file so that a plain copy is the whole database.
  spawnSync(process.execPath, [
    '-e',
    `new (require('node:sqlite').DatabaseSync)(${JSON.stringify(seededPath)}).exec('pragma wal_checkpoint(truncate)')`,
  ]);
  writeFileSync(tokenPath, token);
}

// The server runs exactly as `npm start` runs it (same Node flags), minus npm itself, so that its
// pid is the server's own and its memory can be read.
const START_ARGS: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  .scripts.start.split(/\s+/)
  .slice(1);

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, START_ARGS, {
    cwd: root,
    env: { ...env, PORT: '0', LOG_LEVEL: 'info' },
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

async function api(url: string, path: string, init: RequestInit = {}) {
  const res = await fetch(url + path, {
    ...init,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      ...(init.headers ?? {}),
    },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface Case {
  name: string;
  target: string;
  requests: autocannon.Request[];
  method?: 'GET' | 'POST';
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

async function run(url: string, c: Case, connections: number): Promise<Row> {
  const latencies: number[] = [];
  let errors = 0;
  // Without a callback autocannon returns a promise that is also its event emitter.
  const instance = autocannon({
    url,
    connections,
    duration: SECONDS,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
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

const TOKEN = prepareDatabase();
const { child, url } = await startServer();
try {
  const me = await api(url, '/v1/me');
  log(`workspace ${me.workspace.name}; warming up`);
  const team = (await api(url, '/v1/teams/search?limit=1&expand=none')).data[0];
  // Task ids to read: one page of each of a few walks, spread over the data set.
  const sample = (await api(url, '/v1/tasks/search?limit=100&expand=none')).data.map(
    (t: { id: string }) => t.id,
  );
  // Search words: the 6th and 40th most frequent words of the seed vocabulary (about 13 % and 2 % of names).
  const { WORDS } = await import('../src/seed/vocabulary.ts');
  const common = WORDS[5];
  const other = WORDS[40];
  const oneWord = await api(url, `/v1/tasks/search?limit=1&expand=none&name=${common}`);
  log(`"${common}" is in ${oneWord.total} of ${TASKS} task names`);
  // A walk 50 pages deep (limit 50) through the text-free search.
  let cursor = '';
  for (let page = 1; page < 50; page++) {
    cursor = (await api(url, `/v1/tasks/search?limit=50&expand=none${cursor ? `&cursor=${cursor}` : ''}`))
      .nextCursor;
  }
  let n = 0;
  const cases: Case[] = [
    {
      name: 'get task (expand=all)',
      target: 'p95 ≤ 5 ms',
      requests: rotating(sample.map((id: string) => `/v1/tasks/${id}`)),
    },
    {
      name: 'create task',
      target: 'p95 ≤ 5 ms',
      requests: rotating(['/v1/tasks'], 'POST', () =>
        JSON.stringify({
          name: `Bench task ${n++} ${common}`,
          teamId: team.id,
          description: 'made by the bench',
        }),
      ),
    },
    {
      name: 'batch of 100 creates',
      target: 'p95 ≤ 60 ms',
      requests: rotating(['/v1/tasks/batch?expand=none'], 'POST', () =>
        JSON.stringify({
          tasks: Array.from({ length: 100 }, () => ({ name: `Batch task ${n++}`, teamId: team.id })),
        }),
      ),
    },
    {
      name: `search one word ("${common}")`,
      target: 'p95 ≤ 30 ms',
      requests: rotating([`/v1/tasks/search?name=${common}`]),
    },
    {
      name: 'search two fields, any',
      target: 'p95 ≤ 30 ms',
      requests: rotating([`/v1/tasks/search?name=${other}&description=${common}&matchMode=any`]),
    },
    { name: 'list: first page', target: '= deep page', requests: rotating(['/v1/tasks/search?limit=50']) },
    {
      name: 'list: page 50 of a walk',
      target: '= first page',
      requests: rotating([`/v1/tasks/search?limit=50&cursor=${cursor}`]),
    },
    { name: 'projects list: first page', target: '', requests: rotating(['/v1/projects/list?limit=50']) },
  ];
  const rows: [Row, Row][] = [];
  for (const c of cases) {
    log(`running ${c.name}: ${SECONDS} s with 1 connection, ${SECONDS} s with ${LOAD_CONNECTIONS}`);
    rows.push([await run(url, c, 1), await run(url, c, LOAD_CONNECTIONS)]);
    const rss = rssMb(child.pid!);
    log(`  server RSS after it: ${rss.now.toFixed(0)} MB (peak so far ${rss.peak.toFixed(0)} MB)`);
  }
  const rss = rssMb(child.pid!).peak;
  const ms = (v: number) => v.toFixed(1).padStart(7);
  console.log(`\nCairn bench: ${TASKS} tasks on SQLite, ${SECONDS} s a run\n`);
  console.log(
    `${'case'.padEnd(32)}${'1 conn: req/s'.padStart(14)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}` +
      `${`${LOAD_CONNECTIONS} conn: req/s`.padStart(15)}${'p95'.padStart(8)}${'errors'.padStart(8)}  target`,
  );
  for (const [one, load] of rows) {
    console.log(
      `${one.name.padEnd(32)}${String(one.rps).padStart(14)}${ms(one.p50)} ${ms(one.p95)} ${ms(one.p99)}` +
        `${String(load.rps).padStart(15)}${ms(load.p95)} ${String(one.errors + load.errors).padStart(7)}  ${one.target}`,
    );
  }
  console.log(`\nlatencies in ms; server peak RSS: ${rss.toFixed(0)} MB (target ≤ 300 MB)`);
} finally {
  child.kill('SIGTERM');
}
