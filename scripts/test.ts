// `npm test` (after typecheck and lint): the whole suite on SQLite, then again on PostgreSQL when
// TEST_POSTGRES_URL is set. Each test file makes and drops its own database or schema.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ensureTools } from './tools.ts';

const files = process.argv.slice(2);
// client/test: the TypeScript client (client/) against a real Cairn, in both passes like the rest.
// web/test: the web app's logic, and its journeys in Chromium (those in the SQLite pass only).
const patterns =
  files.length > 0 ? files : ['src/**/*.test.ts', 'client/test/*.test.ts', 'web/test/*.test.ts'];

/** The newest modification time under a file or folder. */
function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

// The server serves web/dist, which `npm install` builds: build it again first when a source of the
// app (or of the client it bundles) changed since, so that the tests see the app as it is.
const web = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'client/src'];
if (Math.max(...web.map(newest)) > newest('web/dist/index.html')) {
  process.stdout.write('# web/dist is older than its sources: building the web app\n');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

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
