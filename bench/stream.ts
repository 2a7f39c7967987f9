// `npm run bench:stream` (also part of `npm run bench`): the live stream (GET /v1/events/stream) on a
// real server process, per database (BENCH_DATABASE=sqlite|postgres|both): STREAMS streams (1,000 by
// default: 100 members with 10 each, the default cap per user) held open on one process while tasks
// are created at RATE a second (200) for BENCH_SECONDS. Figures:
//   - delivery latency p50/p95/p99: from each event's createdAt (taken as its write runs, just
//     before the commit; as bench/webhooks.ts measures) to its arrival, read on SAMPLE streams held by
//     this process (the others are held by a child process that only reads them);
//   - events lost or repeated on the sampled streams (each must get every task exactly once);
//   - the server's memory per stream, measured on a server in this process (run with --expose-gc)
//     whose streams are held by a child process: the heap and buffers (heapUsed + external) after a
//     full collection, with STREAMS/2 streams open and then STREAMS, the difference over STREAMS/2
//     (a first half's requests have grown V8's heap to its working size); and what 1,000 changes sent
//     to every stream leave behind, over STREAMS (a leak would show there);
//   - the RSS growth of the server process of the latency run at the end of the writes, over all
//     streams: it includes what waits for this client, which reads 1,000 streams on the same two
//     cores, up to the bound per stream (CAIRN_STREAM_BUFFER_BYTES).
// Targets (issue 25): p95 under 250 ms, under 20 kB a stream.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { api, freePort, type Server, scratchDatabase, startServer } from '../scripts/servers.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/modules/workspaces/service.ts';
import { rssMb, SECONDS } from './lib.ts';

const ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.BENCH_DATABASE ?? 'both';
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const PER_USER = 10;
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SAMPLE = 50;

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Held {
  /** Sampled streams: each task id's arrival times. */
  arrivals?: Map<string, number[]>;
  bytes: number;
  close(): void;
}

/** One stream over node:http (lighter than fetch at a thousand): counts bytes, or parses its events. */
function hold(port: number, token: string, sampled: boolean): Promise<Held> {
  return new Promise((resolve, reject) => {
    const held: Held = { bytes: 0, close: () => req.destroy() };
    if (sampled) held.arrivals = new Map();
    const req = request(
      { host: '127.0.0.1', port, path: '/v1/events/stream', headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          return;
        }
        let text = '';
        res.on('data', (chunk: Buffer) => {
          held.bytes += chunk.length;
          if (!held.arrivals) return;
          const at = Date.now();
          text += chunk.toString('utf8');
          let end = text.indexOf('\n\n');
          while (end >= 0) {
            const data = /^data: (.*)$/m.exec(text.slice(0, end))?.[1];
            if (data) {
              const id = JSON.parse(data).entityId as string;
              const list = held.arrivals.get(id) ?? [];
              list.push(at);
              held.arrivals.set(id, list);
            }
            text = text.slice(end + 2);
            end = text.indexOf('\n\n');
          }
        });
        res.on('error', () => {});
        resolve(held);
      },
    );
    req.on('error', (e) => (held.bytes === 0 ? reject(e) : undefined));
    req.end();
  });
}

interface Figures {
  heapPerStreamKb: number;
  afterChangesPerStreamKb: number;
  p50: number;
  p95: number;
  p99: number;
  created: number;
  lost: number;
  repeated: number;
  perStreamEndKb: number;
  rssBeforeMb: number;
  rssEndMb: number;
}

interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON; the bench reads the fields it asked for.
  body: any;
}

type Call = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<CallResult | null>;

async function users(call: Call, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const user = await call('POST', '/v1/users', {
      name: `Reader ${i}`,
      email: `reader${i}@bench.test`,
      role: 'member',
    });
    const token = await call('POST', '/v1/api-tokens', { name: 'stream', userId: user!.body.id });
    tokens.push(token!.body.token);
  }
  return tokens;
}

/** The child process that holds streams for the memory figure: `--hold <port>` with tokens on stdin. */
async function holdForParent(port: number): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const tokens = JSON.parse(input) as string[];
  const held: Held[] = [];
  for (let i = 0; i < tokens.length; i++) held.push(await hold(port, tokens[i]!, false));
  process.stdout.write('open\n');
  process.on('SIGTERM', () => process.exit(0));
  await new Promise(() => {});
}

/** Streams held by a child process, one per token given; resolves once they are open. */
async function heldElsewhere(port: number, tokens: string[]) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--hold', String(port)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify(tokens));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('open') && resolve());
    child.once('exit', (code) => reject(new Error(`the stream holder exited with ${code}`)));
  });
  return child;
}

/** Heap and buffers (kB) after a full collection. */
async function measured(): Promise<{ heap: number }> {
  await pause(1000);
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { heap: (m.heapUsed + m.external) / 1024 };
}

/** The server's memory per open stream, on a server in this process (see the top of the file). */
async function memory(
  dialect: 'sqlite' | 'postgres',
): Promise<{ heapPerStreamKb: number; afterChangesPerStreamKb: number }> {
  if (!(globalThis as { gc?: unknown }).gc) {
    log('  (memory per stream: run with node --expose-gc to measure it)');
    return { heapPerStreamKb: Number.NaN, afterChangesPerStreamKb: Number.NaN };
  }
  const scratch = await scratchDatabase(dialect, ADMIN, 'cairn_bench_stream_memory');
  const database = openDatabase(scratch.url);
  const children: ReturnType<typeof spawn>[] = [];
  try {
    await migrateToLatest(database);
    const ws = await createWorkspace(database, {
      name: 'Memory',
      ownerName: 'O',
      ownerEmail: 'o@bench.test',
    });
    const app = await buildApp({
      config: loadConfig({ CAIRN_RATE_LIMIT: '1000000', LOG_LEVEL: 'warn' }),
      database,
      logger: false,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const call: Call = async (method, path, body) => {
      const res = await app.inject({
        method,
        url: path,
        headers: {
          authorization: `Bearer ${ws.token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        payload: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.statusCode, body: res.json() };
    };
    const team = await call('POST', '/v1/teams', { name: 'Bench' });
    const tokens = (await users(call, Math.ceil(STREAMS / PER_USER))).flatMap((t) => Array(PER_USER).fill(t));
    const half = STREAMS / 2;
    children.push(await heldElsewhere(port, tokens.slice(0, half)));
    const first = await measured();
    children.push(await heldElsewhere(port, tokens.slice(half, STREAMS)));
    const second = await measured();
    // Then 1,000 changes sent to every stream: what is left of them once taken (a leak would show).
    for (let i = 0; i < 1000; i++) {
      await call('POST', '/v1/tasks?expand=none', { name: `Change ${i}`, teamId: team!.body.id });
    }
    const third = await measured();
    log(
      `  memory: ${(first.heap / 1024).toFixed(1)} → ${(second.heap / 1024).toFixed(1)} MB heap and buffers` +
        ` (${STREAMS / 2} → ${STREAMS} streams), ${(third.heap / 1024).toFixed(1)} MB after 1,000 changes`,
    );
    for (const c of children) c.kill('SIGTERM');
    await app.close();
    return {
      heapPerStreamKb: (second.heap - first.heap) / half,
      afterChangesPerStreamKb: (third.heap - second.heap) / STREAMS,
    };
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await database.close();
    await scratch.drop();
  }
}

/** Creates RATE tasks a second for SECONDS; each task's send time, by id. */
async function write(server: Server, teamId: string): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  const started = Date.now();
  const total = RATE * SECONDS;
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / RATE - Date.now();
    if (wait > 0) await pause(wait);
    const at = Date.now();
    const p = api(server.base, 'POST', '/v1/tasks?expand=none', { name: `Change ${i}`, teamId }).then(
      (res) => {
        if (res?.status === 201) sent.set(res.body.id, at);
        inFlight.delete(p);
      },
    );
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  return sent;
}

/**
 * Each task's event's createdAt (GET /v1/events), by task id: the time its write took, just before
 * its commit, which delivery is measured from (as bench/webhooks.ts does).
 */
async function createdAt(server: Server): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let cursor = '';
  for (;;) {
    const page = await api(server.base, 'GET', `/v1/events?type=task.created&limit=100${cursor}`);
    for (const e of page!.body.data) out.set(e.data.id, Date.parse(e.createdAt));
    if (!page!.body.hasMore) return out;
    cursor = `&cursor=${page!.body.nextCursor}`;
  }
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<Figures> {
  const scratch = await scratchDatabase(dialect, ADMIN, 'cairn_bench_stream');
  const server = await startServer(scratch.url, await freePort());
  const held: Held[] = [];
  const children: ReturnType<typeof spawn>[] = [];
  try {
    const team = await api(server.base, 'POST', '/v1/teams', { name: 'Bench' });
    const tokens = await users(
      (method, path, body) => api(server.base, method, path, body),
      Math.ceil(STREAMS / PER_USER),
    );
    await pause(1000);
    const before = rssMb(server.process.pid!).now;
    // The sampled streams here; the others in a child process that only reads, so that this one's
    // clock is not late for the work of reading a thousand streams.
    const others: string[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const token = tokens[Math.floor(i / PER_USER)]!;
      if (i % (STREAMS / SAMPLE) === 0) held.push(await hold(server.port, token, true));
      else others.push(token);
    }
    children.push(await heldElsewhere(server.port, others));
    const sent = await write(server, team!.body.id);
    await pause(1000);
    const end = rssMb(server.process.pid!).now;
    const committed = await createdAt(server);
    const latencies: number[] = [];
    let lost = 0;
    let repeated = 0;
    for (const h of held) {
      for (const id of sent.keys()) {
        const times = h.arrivals!.get(id);
        if (!times) lost += 1;
        else {
          if (times.length > 1) repeated += times.length - 1;
          latencies.push(times[0]! - committed.get(id)!);
        }
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      ...(await memory(dialect)),
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      p99: quantile(latencies, 0.99),
      created: sent.size,
      lost,
      repeated,
      perStreamEndKb: ((end - before) * 1024) / STREAMS,
      rssBeforeMb: before,
      rssEndMb: end,
    };
  } finally {
    for (const h of held) h.close();
    for (const c of children) c.kill('SIGTERM');
    await server.stop();
    await scratch.drop();
  }
}

if (process.argv[2] === '--hold') {
  await holdForParent(Number(process.argv[3]));
}
const results: [string, Figures][] = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  if (which !== dialect && which !== 'both') continue;
  log(`live stream on ${dialect}: ${STREAMS} streams, ${RATE} changes/s for ${SECONDS} s`);
  results.push([dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL', await run(dialect)]);
}
const rows: [string, (f: Figures) => string][] = [
  ['tasks created', (f) => String(f.created)],
  ['delivery p50 (ms)', (f) => f.p50.toFixed(0)],
  ['delivery p95 (ms)', (f) => f.p95.toFixed(0)],
  ['delivery p99 (ms)', (f) => f.p99.toFixed(0)],
  [`lost / repeated (${SAMPLE} streams)`, (f) => `${f.lost} / ${f.repeated}`],
  ['memory per stream: heap + buffers (kB)', (f) => f.heapPerStreamKb.toFixed(1)],
  ['heap growth per stream, 1,000 changes on (kB)', (f) => f.afterChangesPerStreamKb.toFixed(1)],
  ['RSS growth per stream under load (kB)', (f) => f.perStreamEndKb.toFixed(1)],
  ['server RSS before / after (MB)', (f) => `${f.rssBeforeMb.toFixed(0)} / ${f.rssEndMb.toFixed(0)}`],
];
log('');
log(['', ...results.map(([name]) => name)].map((c) => c.padEnd(48)).join(''));
for (const [label, cell] of rows)
  log([label, ...results.map(([, f]) => cell(f))].map((c) => c.padEnd(48)).join(''));
