// `node bench/statements.ts`: where a request's time goes on PostgreSQL, statement by statement. On a
// fresh copy of the seeded PostgreSQL bench database, the app (in process, no HTTP) answers each of
// BENCH_URLS (space-separated paths, GETs; default a one-word search; `POST:<path>` posts BENCH_BODY,
// by default a task in the seed's first team) 200 times to warm up, then 50 times with every
// statement recorded; it prints the median request's statements, each with when it
// was sent (ms after the first) and how long it took to answer: which ones wait for which, and
// which run side by side on the pool's connections.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/index.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { preparePostgres, settle } from './seeded.ts';

interface Sent {
  text: string;
  at: number;
  ms: number;
}

// The statements as the metrics time them (db/index.ts onStatement), told when each is answered; it
// was sent `ms` before that.
let recording: Sent[] | null = null;
const onStatement = (sql: string, ms: number) => {
  recording?.push({ text: sql.replace(/\s+/g, ' ').slice(0, 100), at: performance.now() - ms, ms });
};

const copy = await preparePostgres('statements');
const database = openDatabase(copy.databaseUrl, { onStatement });
// The seed's template is of the schema it was seeded with; `npm start` would migrate a copy as this
// does, and the copy is then vacuumed as the bench's are (seeded.ts settle).
if ((await migrateToLatest(database)).applied.length > 0) await settle(copy.databaseUrl);
const config = loadConfig({
  CAIRN_PUBLIC_URL: 'http://bench.test',
  CAIRN_RATE_LIMIT: '1000000',
  CAIRN_RATE_LIMIT_SEARCH: '1000000',
});
const app = await buildApp({ config, database, logger: false });
const headers = { authorization: `Bearer ${copy.token}` };
const teams = await app.inject({ method: 'GET', url: '/v1/teams/search?limit=1&expand=none', headers });
if (teams.statusCode !== 200) throw new Error(`teams: ${teams.statusCode} ${teams.body}`);
const teamId: string = teams.json().data[0].id;
let made = 0;
const get = (url: string) => {
  if (!url.startsWith('POST:')) return app.inject({ method: 'GET', url, headers });
  const body = process.env.BENCH_BODY ?? JSON.stringify({ teamId, description: 'made by the bench' });
  const payload = { name: `Statements ${made++}`, ...JSON.parse(body) };
  return app.inject({ method: 'POST', url: url.slice('POST:'.length), headers, payload });
};
try {
  for (const url of (process.env.BENCH_URLS ?? '/v1/tasks/search?name=build').split(' ')) {
    for (let i = 0; i < 200; i++) await get(url);
    const runs: { ms: number; sent: Sent[] }[] = [];
    for (let i = 0; i < 50; i++) {
      recording = [];
      const started = performance.now();
      const res = await get(url);
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      runs.push({ ms: performance.now() - started, sent: recording });
      recording = null;
    }
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[runs.length >> 1]!;
    median.sent.sort((a, b) => a.at - b.at);
    console.log(`\n${url}: median ${median.ms.toFixed(2)} ms, ${median.sent.length} statements`);
    const start = median.sent[0]?.at ?? 0;
    for (const s of median.sent) {
      console.log(`  +${(s.at - start).toFixed(2)} ms, ${s.ms.toFixed(2)} ms  ${s.text}`);
    }
  }
} finally {
  await app.close();
  await database.close();
  await copy.cleanup();
}
process.exit(0);
