// Real server processes on a throwaway database, for the scripts that prove things about whole
// processes (crash-webhooks.ts, bench/webhooks.ts): a fresh SQLite file or PostgreSQL database,
// `node src/main.ts` started, killed and restarted on it, and a client for its API.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
export const TOKEN = `cairn_${randomBytes(24).toString('base64url')}`;

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(
  dialect: 'sqlite' | 'postgres',
  adminUrl: string,
  /** PostgreSQL: the new database's name starts with it (a random tail follows). */
  prefix = 'cairn_proof',
): Promise<ScratchDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-proof-'));
    return {
      url: `file:${join(dir, 'cairn.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Server {
  port: number;
  base: string;
  process: ChildProcess;
  /** SIGKILL: no cleanup of any kind. */
  kill(): Promise<void>;
  /** SIGTERM, and the exit. */
  stop(): Promise<void>;
}

/** Starts `node src/main.ts` and resolves once /healthz answers. */
export async function startServer(
  databaseUrl: string,
  port: number,
  env: Record<string, string> = {},
): Promise<Server> {
  // SERVER_NODE_ARGS: extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      CAIRN_BOOTSTRAP_TOKEN: TOKEN,
      CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true',
      CAIRN_RATE_LIMIT: '1000000',
      CAIRN_RATE_LIMIT_SEARCH: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the server on port ${port} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    base,
    process: child,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One API call with the bootstrap token; the parsed body, or null when there was no answer. */
export async function api(
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON; the scripts read the fields they asked for.
): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch {
    return null;
  }
}

/**
 * Runs a proof on each database `which` names (sqlite, postgres or both), then says whether it held
 * and exits non-zero when it did not.
 */
export async function runProof(
  name: string,
  which: string,
  run: (dialect: 'sqlite' | 'postgres') => Promise<boolean>,
): Promise<never> {
  const results: boolean[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (which === dialect || which === 'both') results.push(await run(dialect));
  }
  const held = results.every(Boolean);
  process.stderr.write(`${name} ${held ? 'passed' : 'FAILED'}\n`);
  process.exit(held ? 0 : 1);
}

export interface Cluster {
  primary: ChildProcess;
  base: string;
  /** The primary's live worker processes, by pid. */
  workers(): string[];
  /** What the primary wrote to stdout so far. */
  stdout(): string;
  /** SIGTERM (when still running), and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `node src/cluster.ts --workers N` on `port`, resolved once N workers run and /readyz answers. Stop
 * it (stop()) in the caller's after hook, so that a failed assertion does not leave it running.
 */
export async function startCluster(
  databaseUrl: string,
  port: number,
  workers: number,
  env: Record<string, string> = {},
): Promise<Cluster> {
  const primary = spawn(process.execPath, ['src/cluster.ts', '--workers', String(workers)], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      CAIRN_BOOTSTRAP_TOKEN: TOKEN,
      CAIRN_RATE_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => primary.once('exit', (code) => r(code)));
  let stdout = '';
  primary.stdout!.on('data', (c: Buffer) => {
    stdout += c;
  });
  const base = `http://127.0.0.1:${port}`;
  const live = () =>
    spawnSync('pgrep', ['-P', String(primary.pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
  const cluster: Cluster = {
    primary,
    base,
    workers: live,
    stdout: () => stdout,
    async stop() {
      if (primary.exitCode === null && primary.signalCode === null) {
        primary.kill('SIGTERM');
        const late = setTimeout(() => primary.kill('SIGKILL'), 10_000);
        const code = await exited;
        clearTimeout(late);
        return code;
      }
      return exited;
    },
  };
  const until = Date.now() + 30_000;
  const ready = () =>
    fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
  while (live().length < workers || !(await ready())) {
    if (Date.now() > until) {
      await cluster.stop();
      throw new Error('the cluster did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return cluster;
}
