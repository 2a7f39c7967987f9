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
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Case, log, measure, type Row, root, rssMb, SECONDS, startFloor, startServer } from './lib.ts';
import { casesFor, preparePostgres, prepareSqlite, settle, TASKS } from './seeded.ts';

// Latency is measured with one connection (a busy single-threaded server mostly measures its queue);
// throughput with several.
const LOAD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

interface Server {
  label: string;
  url: string;
  token: string;
  cases: Case[];
  child: ChildProcess;
  cleanup(): Promise<void>;
}

async function cairnServer(database: 'sqlite' | 'postgres'): Promise<Server> {
  const prepared = database === 'sqlite' ? await prepareSqlite() : await preparePostgres();
  const { child, url } = await startServer(prepared.databaseUrl);
  await settle(prepared.databaseUrl);
  const cases = selected(await casesFor(url, prepared.token, prepared.databaseUrl));
  const label = database === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  return { label, url, token: prepared.token, cases, child, cleanup: prepared.cleanup };
}

/** The bare floor (floor.ts) on its own copy of the SQLite seed: the cases it answers, same ids. */
async function floorServer(sqlite: Server): Promise<Server> {
  const prepared = await prepareSqlite('floor');
  const { child, url } = await startFloor(prepared.databaseUrl.replace(/^file:/, ''));
  const cases = sqlite.cases.map((c) => (c.floor ? c : { ...c, requests: [] }));
  return { label: 'floor', url, token: prepared.token, cases, child, cleanup: prepared.cleanup };
}

type Cell = Row | undefined;

/**
 * Every server up at once, each case measured on the floor, SQLite and PostgreSQL in turn, with one
 * connection and then LOAD_CONNECTIONS, so that a busy moment of the machine falls on all of them.
 */
async function sideBySide(databases: ('sqlite' | 'postgres')[]): Promise<void> {
  const servers: Server[] = [];
  try {
    for (const database of databases) servers.push(await cairnServer(database));
    if (databases.includes('sqlite')) servers.unshift(await floorServer(servers[0]!));
    // The copies just made are gigabytes of dirty pages: flushed now, or the first fsyncs measured
    // (the floor's creates, seen at 34 a second) wait behind their writeback.
    spawnSync('sync');
    const results: Cell[][][] = [[], []];
    for (const [i, c] of servers.at(-1)!.cases.entries()) {
      log(
        `running ${c.name}: 1 and ${LOAD_CONNECTIONS} connections on ${servers.map((s) => s.label).join(', ')}`,
      );
      for (const [k, connections] of [1, LOAD_CONNECTIONS].entries()) {
        const cells: Cell[] = [];
        for (const server of servers) {
          const own = server.cases[i]!;
          const row =
            own.requests.length > 0 ? await measure(server.url, server.token, own, connections) : undefined;
          cells.push(row);
          await new Promise((r) => setTimeout(r, Math.max(300, 1.5 * (row?.p99 ?? 0))));
        }
        results[k]!.push(cells);
      }
    }
    for (const [k, connections] of [1, LOAD_CONNECTIONS].entries())
      printSideBySide(servers, results[k]!, connections);
    const peaks = servers.map((s) => `${s.label} ${rssMb(s.child.pid!).peak.toFixed(0)}`);
    console.log(`\nserver peak RSS, MB: ${peaks.join(', ')} (target: Cairn ≤ 250)`);
  } finally {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
      await s.cleanup();
    }
  }
}

const ms = (v: number) => v.toFixed(1);

/** One table per connection count: req/s and p95 per server, Cairn on SQLite as a ratio to the floor, PostgreSQL to SQLite. */
function printSideBySide(servers: Server[], rows: Cell[][], connections: number): void {
  console.log(
    `\nCairn bench: ${TASKS} tasks, ${SECONDS} s a run, ${connections} connection(s): req/s (p95 ms)\n`,
  );
  const headers = servers.map((s) => s.label);
  console.log(
    `${'case'.padEnd(34)}${headers.map((h) => h.padStart(26)).join('')}  errors  target (SQLite / PostgreSQL)`,
  );
  for (const [i, cells] of rows.entries()) {
    const c = servers.at(-1)!.cases[i]!;
    const byLabel = new Map(servers.map((s, j) => [s.label, cells[j]]));
    const text = servers.map((s, j) => {
      const row = cells[j];
      if (!row) return ''.padStart(26);
      const base =
        s.label === 'SQLite'
          ? byLabel.get('floor')
          : s.label === 'PostgreSQL'
            ? byLabel.get('SQLite')
            : undefined;
      const ratio = base ? ` ${(row.rps / base.rps).toFixed(2)}×` : '';
      return `${row.rps} (${ms(row.p95)})${ratio}`.padStart(26);
    });
    const errors = cells.reduce((sum, row) => sum + (row?.errors ?? 0), 0);
    console.log(`${c.name.padEnd(34)}${text.join('')}  ${String(errors).padStart(6)}  ${c.target}`);
  }
  console.log('(SQLite: × the floor; PostgreSQL: × SQLite; the floor answers the four cases it has)');
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
      await settle(prepared.databaseUrl);
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

/** A server to compare: the checkout it runs from, and settings of its own. */
interface Side {
  cwd: string;
  env: Record<string, string>;
}

/** A server's CPU µs per request over both runs of a case (1 and N connections), weighted by requests. */
function cpuPerRequest(one: Row, load: Row): string {
  if (one.cpuUs === undefined || load.cpuUs === undefined) return '–';
  const [a, b] = [one.rps * SECONDS, load.rps * SECONDS];
  return String(Math.round((one.cpuUs * a + load.cpuUs * b) / (a + b)));
}

/** Both servers up at once on copies of one seed; each case measured on `before`, then on `after`. */
async function compare(
  database: 'sqlite' | 'postgres',
  before: Side,
  after: Side,
  title: string,
): Promise<void> {
  log(`\n== ${database}: ${title}`);
  const prepare = database === 'sqlite' ? prepareSqlite : preparePostgres;
  const copies = [await prepare('before'), await prepare('after')];
  const sides = [before, after];
  const servers = [
    await startServer(copies[0]!.databaseUrl, 0, before.cwd, before.env),
    await startServer(copies[1]!.databaseUrl, 0, after.cwd, after.env),
  ];
  try {
    for (const copy of copies) await settle(copy.databaseUrl);
    const [before, after] = [
      selected(await casesFor(servers[0]!.url, copies[0]!.token, copies[0]!.databaseUrl, sides[0].cwd)),
      selected(await casesFor(servers[1]!.url, copies[1]!.token, copies[1]!.databaseUrl, sides[1].cwd)),
    ];
    console.log(`\nCairn bench: ${TASKS} tasks on ${database}, ${SECONDS} s a run; ${title}\n`);
    console.log(
      `${'case'.padEnd(32)}${'1 conn p95'.padStart(18)}${'1 conn req/s'.padStart(16)}` +
        `${`${LOAD_CONNECTIONS} conn req/s`.padStart(18)}${'CPU µs/req'.padStart(16)}${'errors'.padStart(8)}`,
    );
    for (const [i, c] of after.entries()) {
      log(`running ${c.name}: before and after, 1 and ${LOAD_CONNECTIONS} connections`);
      const rows: Row[] = [];
      // One connection on both, then the load on both. After each run, a pause as long as its slowest
      // requests: a request autocannon stopped waiting for may still be running in the database, and
      // would otherwise land on the other server's run (seen: PostgreSQL searches at 8 connections).
      for (const connections of [1, LOAD_CONNECTIONS]) {
        for (const [s, cases] of [before, after].entries()) {
          const row = await measure(
            servers[s]!.url,
            copies[s]!.token,
            cases[i]!,
            connections,
            servers[s]!.child.pid,
          );
          rows.push(row);
          await new Promise((r) => setTimeout(r, Math.max(500, 1.5 * row.p99)));
        }
      }
      const [one0, one1, load0, load1] = rows as [Row, Row, Row, Row];
      const pair = (a: string, b: string, width: number) => `${a} → ${b}`.padStart(width);
      console.log(
        `${c.name.padEnd(32)}${pair(one0.p95.toFixed(1), one1.p95.toFixed(1), 18)}` +
          `${pair(String(one0.rps), String(one1.rps), 16)}${pair(String(load0.rps), String(load1.rps), 18)}` +
          `${pair(cpuPerRequest(one0, load0), cpuPerRequest(one1, load1), 16)}` +
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
  // BENCH_AFTER_ENV="NAME=value …": settings for the "after" server alone (a runtime setting against
  // none, with BENCH_BASELINE=. for the same checkout on both sides).
  // A value cannot hold a space; the start script's own Node flags win over NODE_OPTIONS.
  const afterEnv = Object.fromEntries(
    (process.env.BENCH_AFTER_ENV ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`BENCH_AFTER_ENV: "${pair}" is not NAME=value`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );
  const sides = [
    { cwd: baseline, env: {} },
    { cwd: root, env: afterEnv },
  ] as const;
  const title = `${baseline} (before) → ${root}${process.env.BENCH_AFTER_ENV ? ` with ${process.env.BENCH_AFTER_ENV}` : ''} (after)`;
  if (wanted !== 'postgres') await compare('sqlite', ...sides, title);
  if (wanted !== 'sqlite') await compare('postgres', ...sides, title);
  process.exit(0);
}
const databases = (['sqlite', 'postgres'] as const).filter((d) => wanted === 'both' || wanted === d);
await sideBySide([...databases]);
process.exit(0);
