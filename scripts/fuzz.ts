// `npm run fuzz`: the API fuzzer (src/test/fuzz.ts) at full size, on SQLite and on PostgreSQL (at
// TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test): FUZZ_RUNS requests per
// database (default 50,000, so 100,000 in all), seed FUZZ_SEED (default: the time). Fails on any 5xx,
// malformed answer, or refused request that changed the database; prints the findings.
import { spawnSync } from 'node:child_process';

const runs = process.env.FUZZ_RUNS ?? '50000';
const seed = process.env.FUZZ_SEED ?? String(Date.now() % 1_000_000_000);
const postgres = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let failed = false;
for (const database of ['sqlite', 'postgres']) {
  process.stderr.write(`fuzz on ${database}: ${runs} requests, seed ${seed}\n`);
  const result = spawnSync(process.execPath, ['--test', 'src/fuzz.test.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_RUNS: runs,
      FUZZ_SEED: seed,
      CAIRN_TEST_DATABASE: database,
      TEST_POSTGRES_URL: postgres,
    },
  });
  if (result.status !== 0) failed = true;
}
process.stderr.write(failed ? 'fuzz FAILED\n' : 'fuzz passed\n');
process.exit(failed ? 1 : 0);
