// What the bench scripts share (run.ts, fresh.ts): the server started as `npm start` starts it, the
// `cairn` command, and autocannon runs measured as requests/s and latency percentiles.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';

export const root = new URL('..', import.meta.url).pathname;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const PG_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function log(line: string) {
  process.stderr.write(`${line}\n`);
}

/** `cairn <args>` of the checkout at cwd (this one by default) against databaseUrl. */
export function cli(args: string[], databaseUrl: string, stdio: 'inherit' | 'pipe' = 'inherit', cwd = root) {
  const result = spawnSync(process.execPath, ['src/cli.ts', ...args], {
    cwd,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', stdio === 'pipe' ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`cairn ${args.join(' ')} failed`);
  return result.stdout ?? '';
}

export function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

// The server runs exactly as `npm start` runs it (same Node flags), minus npm itself, so that its
// pid is the server's own and its memory can be read. Each checkout's own script: a baseline's may
// differ from this one's.
function startArgs(cwd: string): string[] {
  return JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'))
    .scripts.start.split(/\s+/)
    .slice(1);
}

export async function startServer(
  url: string,
  workers = 0,
  cwd = root,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  // workers > 0: the cluster script, whose workers all listen on the one port PORT=0 picked.
  const start = startArgs(cwd);
  const args = workers > 0 ? [...start.slice(0, -1), 'src/cluster.ts', '--workers', String(workers)] : start;
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out += d;
  };
  child.stdout!.on('data', keep);
  // Up to two minutes: a start may first migrate a seeded million (new indexes).
  for (let i = 0; i < 2400; i++) {
    const m = /Server listening at (http:\/\/[^"]+)/.exec(out);
    if (m) {
      // From here on the request lines are read and dropped: kept, they grew a string in this process
      // (the load generator's) by megabytes a case.
      child.stdout!.off('data', keep).resume();
      return { child, url: m[1]! };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${out}`);
}

/** The bare floor (floor.ts) on a SQLite file. */
export async function startFloor(file: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(root, 'bench/floor.ts'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  for (let i = 0; i < 400; i++) {
    const m = /listening at (http:\/\/\S+)/.exec(out);
    if (m) return { child, url: m[1]! };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the floor did not start: ${out}`);
}

/** The server's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
export function rssMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export interface Case {
  name: string;
  target: string;
  requests: autocannon.Request[];
  /** Whose token the requests carry (default: the workspace owner's). */
  token?: string;
  /** The bare floor (floor.ts) answers it too. */
  floor?: boolean;
}

export interface Row {
  name: string;
  target: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** The server's CPU time (user + system) per answered request, in µs, when its pid was given. */
  cpuUs?: number;
}

/**
 * A process's CPU time so far (user + system), in µs, from /proc. Per request it is the figure that a
 * shared machine disturbs least: another process's load lowers requests/s, not the work each one costs.
 */
export function cpuMicros(pid: number): number {
  // Fields 14 and 15 (utime, stime) follow the command name, which is in parentheses.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function measure(
  url: string,
  token: string,
  c: Case,
  connections: number,
  pid?: number,
): Promise<Row> {
  const latencies: number[] = [];
  const cpuBefore = pid === undefined ? 0 : cpuMicros(pid);
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
  const cpu = pid === undefined ? undefined : cpuMicros(pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    name: c.name,
    target: c.target,
    rps: Math.round(result.requests.average),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: errors + result.errors + result.timeouts,
    ...(cpu === undefined ? {} : { cpuUs: Math.round(cpu / Math.max(1, latencies.length)) }),
  };
}

export function rotating(
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
