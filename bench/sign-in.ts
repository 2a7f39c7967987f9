// `node bench/sign-in.ts` (part of `npm run bench`): sign-ins a second on one server process, per
// database (BENCH_DATABASE=sqlite|postgres|both, default sqlite), for BENCH_SECONDS each:
//   - right password: POST /v1/auth/sign-in answered 200 with a new session;
//   - wrong password: answered 401 (the same hash, and the lockout's counting; its limits are
//     raised out of the way here);
//   - and, for scale, GET /v1/me signed in with the cookie beside the same with an API token.
// A sign-in is bounded by its Argon2id hash by design (m=19 MiB, t=2: docs/decisions.md
// "Passwords"): the hashes run on libuv's thread pool, so the rate is the cores' hash rate, and the
// event loop stays free for other requests meanwhile.
import autocannon from 'autocannon';
import { api, freePort, scratchDatabase, startServer } from '../scripts/servers.ts';
import { openDatabase } from '../src/db/index.ts';
import { hashPassword, storePasswordHash } from '../src/modules/auth/passwords.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.BENCH_DATABASE ?? 'sqlite';
const CONNECTIONS = 8;
const PASSWORD = 'a bench password, long enough';

interface Figure {
  what: string;
  rps: number;
  p50: number;
  p95: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** One autocannon run of `request`; answers other than `expected` are counted as unexpected. */
async function run(
  url: string,
  what: string,
  request: autocannon.Request,
  headers: Record<string, string>,
  expected = 200,
): Promise<Figure> {
  const latencies: number[] = [];
  let unexpected = 0;
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [request],
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    if (status !== expected) unexpected += 1;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    what,
    rps: Math.round(result.requests.average),
    p50: Math.round(percentile(latencies, 50)),
    p95: Math.round(percentile(latencies, 95)),
    errors: unexpected + result.errors + result.timeouts,
  };
}

async function bench(dialect: 'sqlite' | 'postgres'): Promise<Figure[]> {
  const scratch = await scratchDatabase(dialect, ADMIN, 'cairn_bench_sign_in');
  const server = await startServer(scratch.url, await freePort(), {
    CAIRN_RATE_LIMIT_UNAUTHENTICATED: '1000000',
    CAIRN_SIGN_IN_ACCOUNT_FAILURES: '1000000',
    CAIRN_SIGN_IN_ADDRESS_FAILURES: '1000000',
  });
  try {
    const me = (await api(server.base, 'GET', '/v1/me'))!.body;
    const database = openDatabase(scratch.url);
    await storePasswordHash(database.db, me.workspace.id, me.id, await hashPassword(PASSWORD));
    await database.close();
    const signIn = (password: string): autocannon.Request => ({
      method: 'POST',
      path: '/v1/auth/sign-in',
      body: JSON.stringify({ email: me.email, password }),
    });
    const figures = [await run(server.base, 'sign-in, right password', signIn(PASSWORD), {})];
    figures.push(
      await run(server.base, 'sign-in, wrong password (401)', signIn('not the password'), {}, 401),
    );
    const signedIn = await fetch(`${server.base}/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: me.email, password: PASSWORD }),
    });
    const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const read = { method: 'GET', path: '/v1/me' } as const;
    figures.push(await run(server.base, 'GET /v1/me with the cookie', read, { cookie }));
    const token = (await api(server.base, 'POST', '/v1/api-tokens', { name: 'bench' }))!.body.token;
    figures.push(
      await run(server.base, 'GET /v1/me with a token', read, { authorization: `Bearer ${token}` }),
    );
    return figures;
  } finally {
    await server.stop();
    await scratch.drop();
  }
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  if (which !== dialect && which !== 'both') continue;
  const figures = await bench(dialect);
  process.stdout.write(`\nsign-in, ${dialect}, ${CONNECTIONS} connections, ${SECONDS} s each\n`);
  process.stdout.write(
    '| what | requests/s | p50 ms | p95 ms | unexpected answers |\n|---|---|---|---|---|\n',
  );
  for (const f of figures)
    process.stdout.write(`| ${f.what} | ${f.rps} | ${f.p50} | ${f.p95} | ${f.errors} |\n`);
}
