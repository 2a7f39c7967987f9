// `npm run bench:metrics`: what metrics cost a request, on/off (docs/operations.md "What they cost").
//
// Servers measured one after the other moved more between runs than metrics cost (an A/A run read 279
// against 366 µs a request on the shared two-core machine). So four servers, each on its own copy of
// the seed, two with metrics on (a metrics port) and two without, are loaded at the same time in short
// rounds, and each round gives the ratio of the "on" pair's CPU per request to the "off" pair's:
// whatever the machine does in a round it does to all four. A server's position in the run moves its
// figure by a few per cent, so the rounds alternate the two arrangements (on/off/on/off, off/on/off/on).
// BENCH_DATABASE (sqlite or postgres, default sqlite), BENCH_ROUNDS (default 20), BENCH_SECONDS a round
// (lib.ts's, default 10), BENCH_CONNECTIONS per server (default 4), BENCH_CASES a pattern of case names
// (default the get).
import { log, measure, startServer } from './lib.ts';
import { casesFor, preparePostgres, prepareSqlite, TASKS } from './seeded.ts';

const database = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
const pattern = new RegExp(process.env.BENCH_CASES ?? '^get task');
const ON = { CAIRN_METRICS_PORT: '0' };

const prepare = database === 'postgres' ? preparePostgres : prepareSqlite;
const servers = [];
for (const [i, env] of [ON, {}, ON, {}].entries()) {
  const copy = await prepare(`metrics${i}`);
  const { child, url } = await startServer(copy.databaseUrl, 0, undefined, env);
  const found = (await casesFor(url, copy.token, copy.databaseUrl)).find((c) => pattern.test(c.name));
  if (!found) throw new Error(`no case matches ${pattern}`);
  servers.push({ on: env === ON, child, url, copy, case: found });
}

const ratios: number[] = [];
try {
  log(`metrics on/off: ${servers[0]!.case.name}, ${TASKS} tasks on ${database}, four servers at once`);
  for (const s of servers) await measure(s.url, s.copy.token, s.case, connections, s.child.pid); // warm-up
  for (let round = 0; round < rounds; round++) {
    // Odd rounds turn the arrangement around: the servers swap positions in the run.
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    const rows = await Promise.all(
      order.map((s) => measure(s.url, s.copy.token, s.case, connections, s.child.pid)),
    );
    const cpu = (on: boolean) =>
      rows.filter((_, i) => order[i]!.on === on).reduce((sum, row) => sum + (row.cpuUs ?? 0), 0);
    ratios.push(cpu(true) / cpu(false));
    log(`round ${round + 1}: on/off ${ratios.at(-1)!.toFixed(3)}`);
  }
} finally {
  for (const s of servers) s.child.kill();
  for (const s of servers) await s.copy.cleanup();
}
const sorted = [...ratios].sort((a, b) => a - b);
const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
const sd = Math.sqrt(ratios.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, ratios.length - 1));
console.log(
  `\nmetrics on/off, CPU per request (${database}, ${servers[0]!.case.name}, ${rounds} rounds, ` +
    `${4 * connections} connections in all): median ${fmt(sorted[Math.floor(sorted.length / 2)]!)}, ` +
    `mean ${fmt(mean)} ± ${(100 * (sd / Math.sqrt(ratios.length))).toFixed(1)} % (standard error)`,
);
process.exit(0);

function fmt(ratio: number): string {
  return `${ratio >= 1 ? '+' : ''}${(100 * (ratio - 1)).toFixed(1)} %`;
}
