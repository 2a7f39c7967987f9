// The examples of client/examples, each run against a real Cairn as an integrator would run them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startWorker } from '../../src/modules/webhooks/worker.ts';
import { importCsv } from '../examples/import-csv.ts';
import { syncMirror } from '../examples/mirror.ts';
import { quickstart } from '../examples/quickstart.ts';
import { walkProject } from '../examples/walk-project.ts';
import { webhookReceiver } from '../examples/webhook-receiver.ts';
import type { CairnEvent } from '../src/index.ts';
import { startCairn } from './cairn.ts';

const cairn = await startCairn({ CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const api = cairn.client();
const dir = mkdtempSync(join(tmpdir(), 'cairn-client-examples-'));
const quiet = console.log;
after(() => {
  console.log = quiet;
  rmSync(dir, { recursive: true, force: true });
});
console.log = () => {};

/** Asked again until `check` passes: PostgreSQL's feed and worker see an event once it is settled. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

test('quickstart: the first task, in a team it makes when there is none', async () => {
  const task = await quickstart(cairn.baseUrl, cairn.token);
  assert.equal(task.name, 'My first task');
  const again = await quickstart(cairn.baseUrl, cairn.token);
  assert.equal(again.team?.id, task.team?.id, 'the second run uses the team the first made');
});

test('walk-project: every task of a project across pages', async () => {
  const team = await api.upsertTeam({ body: { name: 'Walkers' } });
  const project = await api.upsertProject({ body: { name: 'Long', teamId: team.id } });
  const names = Array.from({ length: 120 }, (_, i) => `Task ${i}`);
  await api.batchUpsertTasks({
    body: { tasks: names.slice(0, 100).map((name) => ({ name, teamId: team.id, projectId: project.id })) },
  });
  await api.batchUpsertTasks({
    body: { tasks: names.slice(100).map((name) => ({ name, teamId: team.id, projectId: project.id })) },
  });
  assert.deepEqual((await walkProject(cairn.baseUrl, cairn.token, project.id)).sort(), [...names].sort());
});

test('webhook-receiver: verifies real deliveries, refuses a forged one', async () => {
  const events: CairnEvent[] = [];
  // A free port first: the subscription's secret is only known once it is made, with its URL.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const base = `http://127.0.0.1:${port}`;
  const made = await api.subscribeWebhook({
    body: { hookUrl: `${base}/hook`, event: 'task.created' },
  });
  // A new subscription is 201 {id, secret}; with an id, an update is 200 with the subscription.
  assert.ok('secret' in made);
  const { secret } = made;
  const receiver = webhookReceiver(secret, (e) => events.push(e));
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  const worker = startWorker({
    database: cairn.f.database,
    publicUrl: 'http://cairn.test',
    allowPrivate: true,
    retentionDays: 7,
    concurrency: 2,
    log: { info() {}, warn() {}, error() {} },
    pollMs: 50,
  });
  try {
    const team = await api.upsertTeam({ body: { name: 'Hooked' } });
    const task = await api.upsertTask({ body: { name: 'Hook me', teamId: team.id } });
    await eventually(async () =>
      assert.deepEqual(events.map((e) => (e.data as { id: string }).id).includes(task.id), true),
    );
    const forged = await fetch(`${base}/hook`, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{}',
    });
    assert.equal(forged.status, 400);
    assert.equal(await forged.text(), 'bad_signature');
  } finally {
    await worker.stop();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('mirror: a first run copies every task; later runs apply the feed from the stored position', async () => {
  const file = join(dir, 'mirror.json');
  const team = await api.upsertTeam({ body: { name: 'Mirrored' } });
  const kept = await api.upsertTask({ body: { name: 'Before the mirror', teamId: team.id } });
  const first = await syncMirror(cairn.baseUrl, cairn.token, file);
  assert.equal(first.tasks[kept.id]?.name, 'Before the mirror');
  const added = await api.upsertTask({ body: { name: 'After', teamId: team.id } });
  await api.upsertTask({ body: { id: kept.id, name: 'Renamed' } });
  await api.deleteTask({ params: { path: { id: added.id } } });
  await eventually(async () => {
    const state = await syncMirror(cairn.baseUrl, cairn.token, file);
    assert.equal(state.tasks[kept.id]?.name, 'Renamed');
    assert.equal(typeof state.tasks[added.id]?.deletedAt, 'string');
  });
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(saved.tasks[kept.id].name, 'Renamed', 'the mirror is on disk for the next start');
});

test('import-csv: rows in chunks of the batch, each refused row reported with its line', async () => {
  const team = await api.upsertTeam({ body: { name: 'Imported' } });
  const rows = Array.from({ length: 230 }, (_, i) => `Row ${i},${team.id},,${i % 2 === 0}`);
  // Line 1 is the header, so row i is line i + 2 until the row whose cell holds a line break.
  rows[10] = `Row 10,${team.id},"A description, with a comma
and a second line",false`; // lines 12-13
  rows[50] = `,${team.id},,false`; // line 53: no name
  rows[120] = `Row 120,00000000-0000-4000-8000-000000000000,,true`; // line 123: no such team
  rows[229] = `Row 229,${team.id},,maybe`; // line 232: not a boolean
  const csv = `name,teamId,description,priority\n${rows.join('\n')}\n`;
  const result = await importCsv(cairn.baseUrl, cairn.token, csv, 100);
  assert.equal(result.created, 227);
  assert.deepEqual(
    result.failed.map((f) => [f.line, f.name, f.code]),
    [
      [53, '', 'validation_failed'],
      [123, 'Row 120', 'validation_failed'],
      [232, 'Row 229', 'validation_failed'],
    ],
  );
  assert.match(result.failed[0]!.error, /name/);
  assert.match(result.failed[1]!.error, /teamId/);
  assert.match(result.failed[2]!.error, /priority/);
  const imported: string[] = [];
  for await (const task of cairn.client().paginate('searchTasks', {
    params: { query: { teamId: team.id, expand: ['none'], includeMarkdown: 'true' } },
  })) {
    imported.push(task.name);
    if (task.name === 'Row 10')
      assert.equal(task.description?.markdown, 'A description, with a comma\nand a second line');
    if (task.name === 'Row 3') assert.equal(task.priority, false);
    if (task.name === 'Row 4') assert.equal(task.priority, true);
  }
  assert.equal(imported.length, 227);
  assert.ok(imported.includes('Row 228') && !imported.includes('Row 120'));
});
