// `npm run bench:webhooks` (also the last part of `npm run bench`): webhook delivery on a real server
// process, per database (BENCH_DATABASE=sqlite|postgres|both), figures printed side by side:
//   - drain: 5,000 task.created events written at once, one subscription: deliveries per second;
//   - steady: events written at 500 a second (batches of 10) for BENCH_SECONDS: commit → delivery
//     latency p50/p95/p99 (event createdAt, taken just before commit, to the receiver's clock);
//   - API while delivering: GET /v1/tasks/{id} requests/s and p95 under that same write stream, with
//     no subscription and then with one, in turns, twice each; and the delivery latency meanwhile,
//     when the GET load takes all the CPU the server can get.
// Targets (issue 10): p95 ≤ 1 s at 500 events/s on SQLite; the API not more than 10 % slower.
import autocannon from 'autocannon';
import { api, freePort, type Server, scratchDatabase, startServer, TOKEN } from '../scripts/servers.ts';
import { type Receiver, startReceiver } from '../src/test/receiver.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.BENCH_DATABASE ?? 'both';
const RATE = 500;
const BATCH = 10;

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Figures {
  drainPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  delivered: number;
  apiWithout: { rps: number; p95: number };
  apiWith: { rps: number; p95: number };
  loadedP50: number;
  loadedP95: number;
  writeP50: number;
  writeP95: number;
}

function latenciesOf(receiver: Receiver, path: string): number[] {
  return receiver.received
    .filter((r) => r.path === path)
    .map((r) => r.at - Date.parse(r.json.createdAt))
    .sort((a, b) => a - b);
}

/** Writes RATE events a second in batches until stopped; resolves with how many were written. */
function writeStream(server: Server, teamId: string): { stop(): Promise<number>; times: number[] } {
  let on = true;
  let written = 0;
  const times: number[] = [];
  const loop = (async () => {
    const started = Date.now();
    for (let i = 0; on; i++) {
      const due = started + (i * 1000 * BATCH) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const tasks = Array.from({ length: BATCH }, (_, j) => ({ name: `Stream ${i}.${j}`, teamId }));
      const sent = Date.now();
      void api(server.base, 'POST', '/v1/tasks/batch?expand=none', { tasks }).then((res) => {
        times.push(Date.now() - sent);
        if (res?.status === 200) written += res.body.succeeded.length;
      });
    }
  })();
  return {
    times,
    async stop() {
      on = false;
      await loop;
      await new Promise((r) => setTimeout(r, 200));
      return written;
    },
  };
}

async function getLoad(server: Server, id: string, seconds = SECONDS): Promise<{ rps: number; p95: number }> {
  const result = await autocannon({
    url: `${server.base}/v1/tasks/${id}`,
    connections: 4,
    duration: seconds,
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return { rps: result.requests.average, p95: result.latency.p97_5 ?? result.latency.p99 };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<Figures> {
  const db = await scratchDatabase(dialect, ADMIN);
  const receiver = await startReceiver();
  const server = await startServer(db.url, await freePort());
  try {
    const team = (await api(server.base, 'POST', '/v1/teams', { name: 'Bench hooks' }))!.body;
    const task = (await api(server.base, 'POST', '/v1/tasks?expand=none', {
      name: 'Read me',
      teamId: team.id,
    }))!.body;

    // Warm-up (discarded), so that no phase pays for the server's first seconds.
    let stream = writeStream(server, team.id);
    await getLoad(server, task.id, 3);
    await stream.stop();

    // Drain: a backlog of 5,000 events for one subscription.
    const sub = await api(server.base, 'POST', '/v1/webhooks/subscribe', {
      hookUrl: `${receiver.base}/drain`,
      event: 'task.created',
    });
    const started = Date.now();
    for (let i = 0; i < 5000 / 100; i++) {
      const tasks = Array.from({ length: 100 }, (_, j) => ({ name: `Drain ${i}.${j}`, teamId: team.id }));
      await api(server.base, 'POST', '/v1/tasks/batch?expand=none', { tasks });
    }
    await receiver.waitFor('/drain', 5000, 300_000);
    const drainPerSecond = 5000 / ((Date.now() - started) / 1000);
    await api(server.base, 'DELETE', `/v1/webhooks/subscribe/${sub!.body.id}`);

    // Steady: RATE events a second, latency from commit to delivery.
    const steady = await api(server.base, 'POST', '/v1/webhooks/subscribe', {
      hookUrl: `${receiver.base}/steady`,
      event: 'task.created',
    });
    stream = writeStream(server, team.id);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    let written = await stream.stop();
    const writeTimes = stream.times.sort((a, b) => a - b);
    await receiver.waitFor('/steady', written, 60_000).catch(() => {});
    const latencies = latenciesOf(receiver, '/steady');
    await api(server.base, 'DELETE', `/v1/webhooks/subscribe/${steady!.body.id}`);

    // The API under the write stream without a subscription and with one, taken in turns (twice
    // each) so that drift on a shared machine falls on both; the delivery latency meanwhile, with
    // the GET load taking all the CPU the server can get.
    const without: { rps: number; p95: number }[] = [];
    const withSub: { rps: number; p95: number }[] = [];
    const loaded: number[] = [];
    for (let round = 0; round < 2; round++) {
      stream = writeStream(server, team.id);
      without.push(await getLoad(server, task.id));
      await stream.stop();
      const path = `/loaded/${round}`;
      const hook = await api(server.base, 'POST', '/v1/webhooks/subscribe', {
        hookUrl: `${receiver.base}${path}`,
        event: 'task.created',
      });
      stream = writeStream(server, team.id);
      withSub.push(await getLoad(server, task.id));
      written = await stream.stop();
      await receiver.waitFor(path, written, 120_000).catch(() => {});
      loaded.push(...latenciesOf(receiver, path));
      await api(server.base, 'DELETE', `/v1/webhooks/subscribe/${hook!.body.id}`);
    }
    loaded.sort((x, y) => x - y);
    const mean = (xs: { rps: number; p95: number }[]) => ({
      rps: xs.reduce((t, x) => t + x.rps, 0) / xs.length,
      p95: xs.reduce((t, x) => t + x.p95, 0) / xs.length,
    });
    const apiWithout = mean(without);
    const apiWith = mean(withSub);
    return {
      drainPerSecond,
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      p99: quantile(latencies, 0.99),
      delivered: latencies.length,
      apiWithout,
      apiWith,
      writeP50: quantile(writeTimes, 0.5),
      writeP95: quantile(writeTimes, 0.95),
      loadedP50: quantile(loaded, 0.5),
      loadedP95: quantile(loaded, 0.95),
    };
  } finally {
    await server.stop();
    await receiver.close();
    await db.drop();
  }
}

const results: [string, Figures][] = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  if (which !== 'both' && which !== dialect) continue;
  log(`webhooks bench on ${dialect} …`);
  results.push([dialect, await run(dialect)]);
}
const row = (label: string, f: (x: Figures) => string) =>
  `${label.padEnd(44)}${results.map(([, x]) => f(x).padStart(14)).join('')}`;
const lines = [
  `${''.padEnd(44)}${results.map(([d]) => d.padStart(14)).join('')}`,
  row('drain: deliveries/s (one subscription)', (x) => x.drainPerSecond.toFixed(0)),
  row(`steady ${RATE} events/s: delivered`, (x) => String(x.delivered)),
  row('  commit → delivery p50 ms', (x) => x.p50.toFixed(0)),
  row('  commit → delivery p95 ms (target 1000)', (x) => x.p95.toFixed(0)),
  row('  commit → delivery p99 ms', (x) => x.p99.toFixed(0)),
  row('  batch of 10 answered p50/p95 ms', (x) => `${x.writeP50.toFixed(0)}/${x.writeP95.toFixed(0)}`),
  row('GET task r/s under writes, no subscription', (x) => x.apiWithout.rps.toFixed(0)),
  row('GET task r/s under writes, delivering', (x) => x.apiWith.rps.toFixed(0)),
  row('  change (target ≥ -10 %)', (x) => `${((x.apiWith.rps / x.apiWithout.rps - 1) * 100).toFixed(1)} %`),
  row(
    'GET task p97.5 ms, no subscription / delivering',
    (x) => `${x.apiWithout.p95.toFixed(0)}/${x.apiWith.p95.toFixed(0)}`,
  ),
  row(
    '  commit → delivery p50/p95 ms meanwhile',
    (x) => `${x.loadedP50.toFixed(0)}/${x.loadedP95.toFixed(0)}`,
  ),
];
process.stdout.write(`\nwebhooks\n${lines.join('\n')}\n`);
