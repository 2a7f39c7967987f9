// Prometheus metrics (docs/operations.md): what a scrape shows after real requests, that every label
// is bounded, that /metrics is never public by accident, that the exposition passes `promtool check
// metrics`, and that under the cluster script one scrape of the primary adds up every worker.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freePort, scratchDatabase, startCluster, startServer, TOKEN } from '../../scripts/servers.ts';
import { ERROR_TITLES } from '../http/errors.ts';
import { onPostgres, setup } from '../test/helpers.ts';
import { statementKind } from './metrics.ts';

const root = new URL('../..', import.meta.url).pathname;
const METRICS_TOKEN = `metrics_${'x'.repeat(40)}`;
const f = await setup(undefined, { CAIRN_METRICS_TOKEN: METRICS_TOKEN });

async function scrape(token: string | null) {
  return f.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** The value of one series (its name with labels, as exposed) in a scrape's text. */
function series(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

test('requests are counted by route template, method and status class; problems by code', async () => {
  const team = await f.owner.post('/v1/teams', { name: 'Metrics' });
  assert.equal(team.status, 201);
  for (let i = 0; i < 3; i++) assert.equal((await f.owner.get(`/v1/teams/${randomUUID()}`)).status, 404);
  const stale = await f.owner.post(
    '/v1/teams',
    { id: team.body.id, name: 'Renamed' },
    { 'if-match': '"not-the-version"' },
  );
  assert.equal(stale.status, 412);
  const key = randomUUID();
  for (let i = 0; i < 2; i++) {
    const made = await f.owner.post('/v1/teams', { name: 'Once' }, { 'idempotency-key': key });
    assert.equal(made.status, 201);
  }
  assert.equal((await f.anonymous.get('/v1/no/such/path')).status, 404);

  const text = (await scrape(METRICS_TOKEN)).body;
  const byRoute = (route: string, status: string) =>
    series(
      text,
      `cairn_http_request_duration_seconds_count{route="${route}",method="GET",status_class="${status}"}`,
    );
  // This file's app is the only one of this process with metrics on (setup's others have none).
  assert.equal(byRoute('/v1/teams/:id', '4xx'), 3);
  assert.equal(byRoute('unmatched', '4xx'), 1);
  assert.equal(series(text, 'cairn_http_problems_total{code="precondition_failed"}'), 1);
  assert.equal(series(text, 'cairn_http_problems_total{code="not_found"}'), 4);
  assert.equal(series(text, 'cairn_idempotent_replays_total'), 1);
  assert.equal(series(text, 'cairn_http_requests_in_flight'), 1, 'the scrape itself is in flight');
});

test('/metrics on the main port needs its token; without a token setting it does not exist', async () => {
  const none = await scrape(null);
  assert.equal(none.statusCode, 401);
  assert.equal(none.headers['www-authenticate'], 'Bearer realm="cairn-metrics"');
  assert.equal((await scrape(`${METRICS_TOKEN}x`)).statusCode, 401);
  // An API token is not a metrics token.
  assert.equal((await scrape(f.ws.token)).statusCode, 401);
  const ok = await scrape(METRICS_TOKEN);
  assert.equal(ok.statusCode, 200);
  assert.match(String(ok.headers['content-type']), /^text\/plain; version=0\.0\.4/);

  const plain = await setup();
  const absent = await plain.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assert.equal(absent.statusCode, 404);
});

// Every label a series may carry, and what its values may be: anything else (an id, an email, a URL
// path with values in it) is an unbounded label and fails here.
const ROUTE = /^(unmatched|\/[a-z0-9/:_*-]*)$/;
const LABELS: Record<string, (value: string) => boolean> = {
  route: (v) => ROUTE.test(v) && !/[0-9a-f]{8}-[0-9a-f]{4}/.test(v) && !/\/\d+(\/|$)/.test(v),
  method: (v) => ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'].includes(v),
  status_class: (v) => /^[1-5]xx$/.test(v),
  code: (v) => v in ERROR_TITLES,
  cause: (v) => ['sqlite_busy', 'pool_timeout', 'statement_timeout', 'connection', 'database'].includes(v),
  kind: (v) =>
    ['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'other'].includes(v) ||
    ['major', 'minor', 'incremental', 'weakcb'].includes(v),
  outcome: (v) => ['delivered', 'failed', 'gone'].includes(v),
  state: (v) => ['active', 'failing', 'disabled'].includes(v),
  le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
  quantile: (v) => Number.isFinite(Number(v)),
  // Node's own (prom-client's defaults): heap spaces, and the version of the running Node.js.
  space: (v) => /^[a-z_]+$/.test(v),
  type: (v) => /^[A-Za-z]+$/.test(v),
  version: (v) => /^v\d+\.\d+\.\d+$/.test(v),
  major: (v) => /^\d+$/.test(v),
  minor: (v) => /^\d+$/.test(v),
  patch: (v) => /^\d+$/.test(v),
};

/** Fails on any series of a scrape whose labels are not all bounded (LABELS). */
function assertBounded(text: string): void {
  const perMetric = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$/.exec(line);
    assert.ok(m, `not a series line: ${line}`);
    const [, name, labels = ''] = m;
    perMetric.set(name!, (perMetric.get(name!) ?? 0) + 1);
    for (const [, label, value] of labels.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      const allowed = LABELS[label!];
      assert.ok(allowed, `${name}: label ${label} is not one of the bounded labels`);
      assert.ok(allowed(value!), `${name}: ${label}="${value}" is not a bounded value`);
    }
  }
  for (const [name, count] of perMetric) assert.ok(count < 2000, `${name}: ${count} series`);
}

test('every series of the app has bounded labels', async () => {
  assertBounded((await scrape(METRICS_TOKEN)).body);
});

function promtool(text: string): void {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  assert.ok(!run.error, 'promtool is needed (Debian: apt-get install prometheus; .ci/run installs it)');
  assert.equal(run.status, 0, `promtool check metrics:\n${run.stdout}${run.stderr}`);
}

/**
 * The alert rules and the example scrape configuration pass promtool, and every metric they and the
 * Grafana dashboard name is one a scrape declares (node_exporter's excepted): a renamed metric cannot
 * leave a silent alert behind.
 */
function referencedMetricsExist(scrapeText: string): void {
  for (const args of [
    ['check', 'rules', 'ops/prometheus/alerts.yml'],
    ['check', 'config', 'ops/prometheus/scrape.yml'],
  ]) {
    const run = spawnSync('promtool', args, { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 0, `promtool ${args.join(' ')}:\n${run.stdout}${run.stderr}`);
  }
  const declared = new Set(
    [...scrapeText.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
      type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name!],
    ),
  );
  const texts = [
    readFileSync(join(root, 'ops/prometheus/alerts.yml'), 'utf8'),
    readFileSync(join(root, 'ops/grafana/cairn.json'), 'utf8'),
  ];
  const named = new Set(
    texts.flatMap((t) => [...t.matchAll(/\b((?:cairn|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1]!)),
  );
  assert.ok(named.size > 10);
  for (const name of named)
    assert.ok(declared.has(name), `${name} is named by ops/ but no scrape declares it`);
}

test('CAIRN_METRICS_PORT: a listener of its own, whose scrape passes promtool check metrics', async () => {
  const scratch = await scratchDatabase(
    onPostgres ? 'postgres' : 'sqlite',
    process.env.TEST_POSTGRES_URL ?? '',
  );
  after(() => scratch.drop());
  const [port, metricsPort] = [await freePort(), await freePort()];
  const server = await startServer(scratch.url, port, { CAIRN_METRICS_PORT: String(metricsPort) });
  try {
    const me = await fetch(`${server.base}/v1/me`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(me.status, 200);
    // Not on the main port: there it would need CAIRN_METRICS_TOKEN.
    assert.equal((await fetch(`${server.base}/metrics`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status, 404);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.match(
      text,
      /^cairn_http_request_duration_seconds_count\{route="\/v1\/me",method="GET",status_class="2xx"\} 1$/m,
    );
    assert.match(text, /^nodejs_eventloop_lag_p99_seconds /m);
    assert.match(text, /^cairn_db_statement_duration_seconds_count\{kind="select"\} [1-9]/m);
    if (onPostgres) assert.match(text, /^cairn_db_pool_connections [1-9]/m);
    assert.match(text, /^cairn_webhook_subscriptions\{state="disabled"\} 0$/m);
    assert.match(text, /^cairn_webhook_events_waiting 0$/m);
    assert.match(text, /^cairn_webhook_oldest_waiting_event_age_seconds 0$/m);
    assertBounded(text);
    promtool(text);
    referencedMetricsExist(text);
  } finally {
    await server.stop();
  }
});

test('under the cluster script the primary serves every worker’s metrics, added up', {
  skip: onPostgres && 'the SQLite pass covers the cluster',
}, async () => {
  const scratch = await scratchDatabase('sqlite', '');
  after(() => scratch.drop());
  const [port, metricsPort] = [await freePort(), await freePort()];
  const cluster = await startCluster(scratch.url, port, 2, { CAIRN_METRICS_PORT: String(metricsPort) });
  after(() => cluster.stop());
  const { base } = cluster;
  // New connections each time, so that both workers answer some of them.
  const requests = 40;
  for (let i = 0; i < requests; i++) {
    const res = await fetch(`${base}/v1/me`, {
      headers: { authorization: `Bearer ${TOKEN}`, connection: 'close' },
    });
    assert.equal(res.status, 200);
  }
  // A worker still starting has not answered the primary yet: that scrape fails (500), the next not.
  let text = '';
  for (const deadline = Date.now() + 30_000; ; ) {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    text = await res.text();
    if (res.status === 200) break;
    assert.ok(Date.now() < deadline, `the primary's scrape kept failing: ${text}`);
  }
  const total =
    /^cairn_http_request_duration_seconds_count\{route="\/v1\/me",method="GET",status_class="2xx"\} (\d+)$/m.exec(
      text,
    );
  assert.equal(
    Number(total?.[1]),
    requests,
    `one scrape counts every worker’s requests:\n${text.slice(0, 3000)}`,
  );
  promtool(text);
});

test("a statement's kind is its first keyword, in any case, and only a whole word", () => {
  const kinds = {
    'select "id" from "tasks"': 'select',
    '  \n\tWITH "t" as (select 1) select 1': 'with',
    'insert into "events" values ($1)': 'insert',
    'update "tasks" set "name" = ?': 'update',
    'DELETE from "tasks"': 'delete',
    'begin immediate': 'begin',
    commit: 'commit',
    'rollback to savepoint "sp"': 'rollback',
    'release savepoint "sp"': 'other',
    'savepoint "sp"': 'other',
    'selected from': 'other',
    'create index': 'other',
    '': 'other',
  };
  for (const [text, kind] of Object.entries(kinds)) assert.equal(statementKind(text), kind, text);
});
