import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runFuzz } from './test/fuzz-run.ts';
import { setup } from './test/helpers.ts';

// A fixed-seed slice in `npm test`; `npm run fuzz` (scripts/fuzz.ts) runs this file with FUZZ_RUNS and
// FUZZ_SEED set, on each database, for the full run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

test(`fuzzing: ${RUNS} generated and broken requests, no 5xx, every answer well-formed, refusals change nothing`, async () => {
  const f = await setup();
  const started = Date.now();
  const report = await runFuzz(f, {
    runs: RUNS,
    seed: SEED,
    progress: (n) => {
      if (process.env.FUZZ_RUNS && n % 5000 === 0) process.stderr.write(`fuzz: ${n} requests\n`);
    },
  });
  if (process.env.FUZZ_RUNS) {
    process.stderr.write(
      `fuzz: ${report.requests} requests in ${((Date.now() - started) / 1000).toFixed(0)} s, ` +
        `${report.findings.length} findings, statuses ${JSON.stringify(report.statuses)}\n`,
    );
  }
  assert.deepEqual(report.findings.slice(0, 20), []);
  assert.equal(report.requests, RUNS);
  // The generator reaches past validation as well as failing it.
  const ok = Object.entries(report.statuses)
    .filter(([s]) => Number(s) < 300)
    .reduce((n, [, c]) => n + c, 0);
  assert.ok(ok >= RUNS / 20, `only ${ok} requests succeeded: ${JSON.stringify(report.statuses)}`);
});
