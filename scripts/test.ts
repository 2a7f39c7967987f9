// `npm test` (after typecheck and lint): the whole suite on SQLite, then again on PostgreSQL when
// TEST_POSTGRES_URL is set. Each test file makes and drops its own database or schema.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { ensureTools } from './tools.ts';

const files = process.argv.slice(2);
// client/test: the TypeScript client (client/) against a real Cairn, in both passes like the rest.
const patterns = files.length > 0 ? files : ['src/**/*.test.ts', 'client/test/*.test.ts'];

function pass(label: string, env: Record<string, string>): boolean {
  process.stdout.write(`\n# ${label}\n`);
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...patterns], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

ensureTools();
const results: [string, boolean][] = [];
results.push(['sqlite', pass('tests on SQLite', { CAIRN_TEST_DATABASE: 'sqlite' })]);

const url = process.env.TEST_POSTGRES_URL;
if (url) {
  // Extensions are per database: make them once here rather than racing in parallel test files.
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('create extension if not exists btree_gin');
  await admin.end();
  results.push(['postgres', pass('tests on PostgreSQL', { CAIRN_TEST_DATABASE: 'postgres' })]);
} else {
  process.stdout.write('\n# PostgreSQL pass skipped: TEST_POSTGRES_URL is not set\n');
}

process.stdout.write(
  `\n# passes: ${results.map(([name, ok]) => `${name} ${ok ? 'ok' : 'FAILED'}`).join(', ')}\n`,
);
process.exit(results.every(([, ok]) => ok) ? 0 : 1);
