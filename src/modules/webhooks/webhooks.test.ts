import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { caughtUp, client, ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';
import { startReceiver } from '../../test/receiver.ts';
import { EVENT_TYPES, type EventType } from '../registry.ts';
import { startWorker } from './worker.ts';

/** The kinds that events are about: `task` of `task.created`. */
type KindOf<T> = T extends `${infer K}.${string}` ? K : never;
type EventKind = KindOf<EventType>;

const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver = await startReceiver();
// Worker errors surface in the test output (they would otherwise only show as missing deliveries).
const silent = { info() {}, warn() {}, error: (o: unknown, m?: string) => console.error(m, o) };
const worker = startWorker({
  database: f.database,
  publicUrl: 'http://cairn.test',
  allowPrivate: true,
  retentionDays: 7,
  concurrency: 4,
  log: silent,
  pollMs: 50,
});
after(async () => {
  await worker.stop();
  await receiver.close();
});

const member = await f.newUser('member', 'Mona Member');
const admin = await f.newUser('admin', 'Ada Admin');
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering', members: [{ id: member.id }] })).body;
const vault = (await f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private' })).body;
const statuses = (await f.owner.get('/v1/project-statuses')).body.data;

let hooks = 0;
/** A subscription to `event` at a path of its own on the receiver: its path, id and secret. */
async function subscribe(event: string, as = f.owner) {
  hooks += 1;
  const path = `/hook/${hooks}`;
  const res = await as.post('/v1/webhooks/subscribe', { hookUrl: `${receiver.base}${path}`, event });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { path, id: res.body.id as string, secret: res.body.secret as string };
}

async function deliveries(id: string, as = f.owner) {
  const res = await as.get(`/v1/webhooks/subscribe/${id}/deliveries`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('subscribing', () => {
  test('201 {id, secret}; the listing shows the subscription and its state, never the secret', async () => {
    const res = await f.owner.post('/v1/webhooks/subscribe', {
      hookUrl: `${receiver.base}/x`,
      event: 'task.created',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'secret']);
    assert.match(res.body.id, UUID_PATTERN);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await f.owner.get('/v1/webhooks/subscribe');
    const mine = list.body.data.find((s: { id: string }) => s.id === res.body.id);
    assert.deepEqual(mine, {
      id: res.body.id,
      hookUrl: `${receiver.base}/x`,
      event: 'task.created',
      state: 'active',
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      nextAttemptAt: null,
      createdById: f.ws.user.id,
      createdAt: mine.createdAt,
      updatedAt: mine.createdAt,
      previousSecretExpiresAt: null,
    });
    assert.match(mine.createdAt, ISO_PATTERN);
    assert.equal(JSON.stringify(list.body).includes(res.body.secret), false);
    assert.equal((await f.owner.delete(`/v1/webhooks/subscribe/${res.body.id}`)).status, 204);
    problem(await f.owner.delete(`/v1/webhooks/subscribe/${res.body.id}`), 404, 'not_found');
  });

  test('GET /v1/webhooks/events lists every event name', async () => {
    const res = await f.owner.get('/v1/webhooks/events');
    assert.deepEqual(res.body, { data: [...EVENT_TYPES] });
  });

  test('bad input is 400 naming the field, and subscribes nothing', async () => {
    const before = (await f.owner.get('/v1/webhooks/subscribe?limit=100')).body.data.length;
    const path = async (body: unknown) =>
      problem(await f.owner.post('/v1/webhooks/subscribe', body), 400, 'validation_failed').errors[0].path;
    assert.equal(await path({ hookUrl: `${receiver.base}/x`, event: 'task.exploded' }), '/body/event');
    assert.equal(await path({ hookUrl: 'not a url', event: 'task.created' }), '/body/hookUrl');
    assert.equal(await path({ hookUrl: 'ftp://example.com/x', event: 'task.created' }), '/body/hookUrl');
    assert.equal(await path({ hookUrl: '/relative', event: 'task.created' }), '/body/hookUrl');
    assert.equal(await path({ event: 'task.created' }), '/body/hookUrl');
    assert.equal(
      await path({ hookUrl: `https://e.com/${'x'.repeat(2048)}`, event: 'task.created' }),
      '/body/hookUrl',
    );
    assert.equal((await f.owner.get('/v1/webhooks/subscribe?limit=100')).body.data.length, before);
  });

  test('every internal address form is refused when private targets are not allowed', async () => {
    const strict = await buildApp({ config: loadConfig({}), database: f.database, logger: false });
    after(() => strict.close());
    const api = client(strict, f.ws.token);
    for (const host of [
      '127.0.0.1',
      'localhost',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '2130706433',
      '0x7f.1',
      '0177.0.0.1',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::ffff:a9fe:a9fe]',
      '[fd00:ec2::254]',
      '[fc00::1]',
      '[fe80::1]',
      '[ff02::1]',
    ]) {
      const res = await api.post('/v1/webhooks/subscribe', {
        hookUrl: `http://${host}:8080/hook`,
        event: 'task.created',
      });
      const body = problem(res, 400, 'validation_failed');
      assert.equal(body.errors[0].path, '/body/hookUrl', host);
      // The refusal names the switch for a receiver on a trusted network.
      assert.match(body.detail, /internal address: .*CAIRN_WEBHOOK_ALLOW_PRIVATE=true/, host);
    }
    const unresolvable = await api.post('/v1/webhooks/subscribe', {
      hookUrl: 'http://no-such-host.invalid/hook',
      event: 'task.created',
    });
    assert.match(problem(unresolvable, 400, 'validation_failed').detail, /cannot be resolved/);
  });

  test("only the creator, an admin or an owner sees a subscription; another workspace's is 404", async () => {
    const sub = await subscribe('task.updated', member.api);
    problem(
      await f.newUser('member').then((u) => u.api.get(`/v1/webhooks/subscribe/${sub.id}`)),
      404,
      'not_found',
    );
    assert.equal((await admin.api.get(`/v1/webhooks/subscribe/${sub.id}`)).status, 200);
    assert.equal((await member.api.get(`/v1/webhooks/subscribe/${sub.id}/deliveries`)).status, 200);
    const other = await f.newWorkspace('Hooks');
    problem(await other.owner.delete(`/v1/webhooks/subscribe/${sub.id}`), 404, 'not_found');
    problem(await other.owner.get(`/v1/webhooks/subscribe/${sub.id}/deliveries`), 404, 'not_found');
    // The listing is the caller's own.
    assert.equal((await admin.api.get('/v1/webhooks/subscribe')).body.data.length, 0);
    assert.equal((await member.api.delete(`/v1/webhooks/subscribe/${sub.id}`)).status, 204);
  });
});

describe('delivery', () => {
  test('each event type arrives signed per Standard Webhooks, its data as GET with expand=all', async () => {
    const subs = new Map<string, Awaited<ReturnType<typeof subscribe>>>();
    for (const type of EVENT_TYPES) subs.set(type, await subscribe(type));
    const team = (await f.owner.post('/v1/teams', { name: 'Signals' })).body;
    await f.owner.post('/v1/teams', { id: team.id, name: 'Signals 2' });
    const ops = (await f.owner.post('/v1/areas', { name: 'Signals area' })).body;
    await f.owner.post('/v1/areas', { id: ops.id, name: 'Signals area 2' });
    const task = (await f.owner.post('/v1/tasks', { name: 'Signed', teamId: team.id })).body;
    await f.owner.post('/v1/tasks', { id: task.id, name: 'Signed 2' });
    await f.owner.delete(`/v1/tasks/${task.id}`);
    await f.owner.post(`/v1/tasks/${task.id}/restore`);
    const project = (await f.owner.post('/v1/projects', { name: 'Signed project', teamId: team.id })).body;
    await f.owner.post('/v1/projects', { id: project.id, name: 'Signed project 2' });
    await f.owner.post(`/v1/projects/${project.id}/archive`);
    await f.owner.post(`/v1/projects/${project.id}/unarchive`);
    await f.owner.post(`/v1/projects/${project.id}/status-update`, {
      statusId: statuses[1].id,
      content: 'Going',
    });
    const doc = (await f.owner.post('/v1/documents', { name: 'Signed doc', teamId: team.id })).body;
    await f.owner.post('/v1/documents', { id: doc.id, name: 'Signed doc 2' });
    await f.owner.delete(`/v1/documents/${doc.id}`);
    await f.owner.post(`/v1/documents/${doc.id}/restore`);
    const post = (
      await f.owner.post('/v1/posts', { entityType: 'document', entityId: doc.id, content: 'Hi' })
    ).body;
    const tt = (await f.owner.post('/v1/task-templates', { name: 'Signed template', areaId: ops.id })).body;
    const pt = (await f.owner.post('/v1/project-templates', { name: 'Signed plan', ownedByAreaId: ops.id }))
      .body;
    // The collections whose GET by id takes `expand`, from the OpenAPI document.
    const openapi = (await f.anonymous.get('/openapi.json')).body as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    const expandable = new Set(
      Object.entries(openapi.paths)
        .filter(([, item]) => item.get?.parameters?.some((p) => p.in === 'query' && p.name === 'expand'))
        .map(([path]) => /^\/v1\/([a-z-]+)\/\{id\}$/.exec(path)?.[1])
        .filter((collection) => collection !== undefined),
    );
    assert.ok(expandable.has('tasks') && !expandable.has('task-templates'), [...expandable].join());
    // Typed by the registry's event types: a resource with events fails the typecheck until it is here.
    const about: Record<EventKind, [string, string]> = {
      team: ['teams', team.id],
      area: ['areas', ops.id],
      task: ['tasks', task.id],
      project: ['projects', project.id],
      document: ['documents', doc.id],
      post: ['posts', post.id],
      task_template: ['task-templates', tt.id],
      project_template: ['project-templates', pt.id],
    };
    for (const type of EVENT_TYPES) {
      const sub = subs.get(type)!;
      const [collection, id] = about[type.slice(0, type.indexOf('.')) as EventKind];
      // (A status update writes a post too: post.created comes twice.)
      const wanted = type === 'post.created' ? 2 : 1;
      const got = (await receiver.waitFor(sub.path, wanted)).find((r) => r.json.data.id === id);
      assert.ok(got, type);
      const verified = new Webhook(sub.secret).verify(got.body, got.headers as Record<string, string>) as {
        id: string;
        type: string;
      };
      assert.deepEqual(verified, got.json, type);
      assert.equal(got.headers['webhook-id'], got.json.id, type);
      assert.match(String(got.headers['user-agent']), /^Cairn-Webhooks\/\d+\.\d+\.\d+$/);
      assert.equal(got.headers['content-type'], 'application/json');
      assert.deepEqual(
        Object.keys(got.json).sort(),
        [
          'createdAt',
          'data',
          'id',
          ...(type.endsWith('.updated') ? ['previousAttributes'] : []),
          'type',
          'workspaceId',
        ],
        type,
      );
      assert.equal(got.json.type, type);
      assert.equal(got.json.workspaceId, f.ws.workspace.id);
      // data is the thing as it was when delivered (later changes may have followed), with every
      // expansion: the same fields as GET with expand=all.
      // (A resource without expansions, such as templates, has no expand parameter on its GET.)
      const qs = expandable.has(collection) ? '?expand=all' : '';
      const now = (await f.owner.get(`/v1/${collection}/${id}${qs}`)).body;
      assert.equal(got.json.data.id, id, type);
      assert.deepEqual(Object.keys(got.json.data).sort(), Object.keys(now).sort(), type);
      // A body changed on the way is rejected.
      assert.throws(() =>
        new Webhook(sub.secret).verify(
          got.body.replace('"data"', '"dat4"'),
          got.headers as Record<string, string>,
        ),
      );
    }
  });

  test('a 500 is retried with the same event and webhook-id; the log shows each attempt', async () => {
    const sub = await subscribe('task.created');
    receiver.answer(sub.path, (_r, nth) => ({ status: nth === 1 ? 500 : 200 }));
    const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Flaky', teamId: eng.id })).body;
    const [first, second] = await receiver.waitFor(sub.path, 2, 20_000);
    assert.equal(first!.headers['webhook-id'], second!.headers['webhook-id']);
    assert.equal(first!.json.id, second!.json.id);
    assert.equal(second!.json.data.id, task.id);
    const log = await eventually(
      () => deliveries(sub.id),
      (d) => d.length === 2,
    );
    assert.deepEqual(
      log.map(
        (d: { attempt: number; statusCode: number; replay: boolean; eventId: string; eventType: string }) => [
          d.attempt,
          d.statusCode,
          d.replay,
          d.eventId,
          d.eventType,
        ],
      ),
      [
        [2, 200, false, first!.json.id, 'task.created'],
        [1, 500, false, first!.json.id, 'task.created'],
      ],
    );
    assert.equal(log[1].error, 'HTTP 500');
    assert.match(log[1].nextAttemptAt, ISO_PATTERN);
    const wait = Date.parse(log[1].nextAttemptAt) - Date.parse(log[1].createdAt);
    assert.ok(wait >= 4500 && wait <= 5500, `first retry after ${wait} ms`);
    assert.equal(log[0].nextAttemptAt, null);
    assert.equal(typeof log[0].durationMs, 'number');
  });

  test('429 with Retry-After waits as asked', async () => {
    const sub = await subscribe('task.created');
    receiver.answer(sub.path, (_r, nth) =>
      nth === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await f.owner.post('/v1/tasks?expand=none', { name: 'Busy', teamId: eng.id });
    await receiver.waitFor(sub.path, 2);
    const log = await eventually(
      () => deliveries(sub.id),
      (d) => d.length === 2,
    );
    assert.equal(Date.parse(log[1].nextAttemptAt) - Date.parse(log[1].createdAt), 1000);
  });

  test('a Retry-After that is negative, in the past or absurd gets the normal backoff', async () => {
    const headers = ['-5', 'Mon, 01 Jan 2001 00:00:00 GMT', '99999999999', 'Fri, 31 Dec 9999 23:59:59 GMT'];
    const subs = [];
    for (const value of headers) {
      const sub = await subscribe('task.created');
      receiver.answer(sub.path, () => ({ status: 503, headers: { 'retry-after': value } }));
      subs.push(sub);
    }
    await f.owner.post('/v1/tasks?expand=none', { name: 'Odd retry', teamId: eng.id });
    for (const [i, sub] of subs.entries()) {
      const log = await eventually(
        () => deliveries(sub.id),
        (d) => d.length === 1,
      );
      const wait = Date.parse(log[0].nextAttemptAt) - Date.parse(log[0].createdAt);
      assert.ok(wait >= 4500 && wait <= 5500, `Retry-After ${headers[i]}: retried after ${wait} ms`);
      await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
    }
  });

  test('410 removes the subscription', async () => {
    const sub = await subscribe('task.created');
    receiver.answer(sub.path, () => ({ status: 410 }));
    await f.owner.post('/v1/tasks?expand=none', { name: 'Gone', teamId: eng.id });
    await receiver.waitFor(sub.path, 1);
    const res = await eventually(
      () => f.owner.get(`/v1/webhooks/subscribe/${sub.id}`),
      (r) => r.status === 404,
    );
    problem(res, 404, 'not_found');
  });

  test('a redirect is a failure, not followed', async () => {
    const sub = await subscribe('task.created');
    receiver.answer(sub.path, () => ({ status: 302, headers: { location: `${receiver.base}/elsewhere` } }));
    await f.owner.post('/v1/tasks?expand=none', { name: 'Moved', teamId: eng.id });
    await receiver.waitFor(sub.path, 1);
    const log = await eventually(
      () => deliveries(sub.id),
      (d) => d.length === 1,
    );
    assert.deepEqual([log[0].statusCode, log[0].error], [302, 'redirect (302) not followed']);
    assert.equal(receiver.received.filter((r) => r.path === '/elsewhere').length, 0);
  });

  test('events of one subscription arrive in commit order', async () => {
    const sub = await subscribe('task.created');
    // Slow answers, so that later events queue behind earlier ones.
    receiver.answer(sub.path, () => ({ status: 200, delayMs: 20 }));
    const made: string[] = [];
    for (let i = 0; i < 8; i++) {
      made.push(
        (await f.owner.post('/v1/tasks?expand=none', { name: `Order ${i}`, teamId: eng.id })).body.id,
      );
    }
    const got = await receiver.waitFor(sub.path, 8);
    assert.deepEqual(
      got.map((r) => r.json.data.id),
      made,
    );
  });

  test('nothing the creator cannot see, and nothing of another workspace, is sent', async () => {
    const mine = await subscribe('task.created', member.api);
    const other = await f.newWorkspace('Elsewhere');
    const theirs = await subscribe('task.created', other.owner);
    await f.owner.post('/v1/tasks?expand=none', { name: 'Hidden', teamId: vault.id });
    const open = (await f.owner.post('/v1/tasks?expand=none', { name: 'Visible', teamId: eng.id })).body;
    const otherTeam = (await other.owner.post('/v1/teams', { name: 'Theirs' })).body;
    const theirTask = (
      await other.owner.post('/v1/tasks?expand=none', { name: 'Theirs', teamId: otherTeam.id })
    ).body;
    const [got] = await receiver.waitFor(mine.path, 1);
    assert.equal(got!.json.data.id, open.id);
    const [their] = await receiver.waitFor(theirs.path, 1);
    assert.equal(their!.json.data.id, theirTask.id);
    // Once the worker is past every event, it has sent all it was going to (wrongly or not).
    await caughtUp(f.database.db, mine.id);
    await caughtUp(f.database.db, theirs.id);
    assert.equal(receiver.received.filter((r) => r.path === mine.path).length, 1);
    assert.equal(receiver.received.filter((r) => r.path === theirs.path).length, 1);
  });

  test('a replay sends the event again, and shows in the log', async () => {
    const sub = await subscribe('task.created');
    await f.owner.post('/v1/tasks?expand=none', { name: 'Again', teamId: eng.id });
    const [first] = await receiver.waitFor(sub.path, 1);
    const [delivery] = await eventually(
      () => deliveries(sub.id),
      (d) => d.length === 1,
    );
    const res = await f.owner.post(`/v1/webhooks/subscribe/${sub.id}/deliveries/${delivery.id}/retry`);
    assert.equal(res.status, 202);
    assert.deepEqual(Object.keys(res.body).sort(), ['eventId', 'queuedAt']);
    assert.equal(res.body.eventId, first!.json.id);
    const [, second] = await receiver.waitFor(sub.path, 2);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    const log = await eventually(
      () => deliveries(sub.id),
      (d) => d.length === 2,
    );
    assert.deepEqual([log[0].replay, log[0].statusCode], [true, 200]);
    problem(
      await f.owner.post(
        `/v1/webhooks/subscribe/${sub.id}/deliveries/00000000-0000-4000-8000-000000000000/retry`,
      ),
      404,
      'not_found',
    );
  });

  test('failing for three days disables the subscription; a successful replay brings it back', async () => {
    const sub = await subscribe('task.created');
    receiver.answer(sub.path, () => ({ status: 500 }));
    await f.owner.post('/v1/tasks?expand=none', { name: 'Doomed', teamId: eng.id });
    await receiver.waitFor(sub.path, 1);
    await eventually(
      () => deliveries(sub.id),
      (d) => d.length === 1,
    );
    // Three days pass: the head event has been failing since then, and its retry is due.
    const longAgo = new Date(Date.now() - 3 * 86_400_000 - 1000).toISOString();
    await sql`update webhook_subscriptions set failing_since = ${longAgo}, next_attempt_at = ${new Date().toISOString()}
      where id = ${sub.id}`.execute(f.database.db);
    worker.wake();
    const disabled = await eventually(
      () => f.owner.get(`/v1/webhooks/subscribe/${sub.id}`),
      (r) => r.body.state === 'disabled',
    );
    assert.deepEqual([disabled.body.state, disabled.body.disabledReason], ['disabled', 'failing']);
    assert.match(disabled.body.disabledAt, ISO_PATTERN);
    assert.equal(disabled.body.failingSince, longAgo);
    // The endpoint is fixed; a replay gets through and the subscription is active again.
    receiver.answer(sub.path, () => ({ status: 200 }));
    const [latest] = await deliveries(sub.id);
    assert.equal(
      (await f.owner.post(`/v1/webhooks/subscribe/${sub.id}/deliveries/${latest.id}/retry`)).status,
      202,
    );
    const revived = await eventually(
      () => f.owner.get(`/v1/webhooks/subscribe/${sub.id}`),
      (r) => r.body.state === 'active' && r.body.failingSince === null,
    );
    assert.deepEqual([revived.body.state, revived.body.disabledReason], ['active', null]);
  });

  test('a URL that turned internal is refused at delivery too', async () => {
    const strict = startWorker({
      database: f.database,
      publicUrl: 'http://cairn.test',
      allowPrivate: false,
      retentionDays: 7,
      concurrency: 1,
      log: silent,
      pollMs: 50,
    });
    await worker.stop();
    try {
      const sub = await subscribe('task.created');
      await f.owner.post('/v1/tasks?expand=none', { name: 'Rebound', teamId: eng.id });
      const [attempt] = await eventually(
        () => deliveries(sub.id),
        (d) => d.length === 1,
      );
      assert.equal(attempt.statusCode, null);
      assert.match(attempt.error, /^refused: /);
      assert.equal(receiver.received.filter((r) => r.path === sub.path).length, 0);
    } finally {
      await strict.stop();
    }
  });

  test('a commit wakes the worker at once: single writes and batches, with no polling to fall back on', async () => {
    await worker.stop();
    const idle = startWorker({
      database: f.database,
      publicUrl: 'http://cairn.test',
      allowPrivate: true,
      retentionDays: 7,
      concurrency: 1,
      log: silent,
      pollMs: 3_600_000,
    });
    try {
      await new Promise((r) => setTimeout(r, 200)); // its first look, at start, is over
      const sub = await subscribe('task.created');
      const one = await f.owner.post('/v1/tasks?expand=none', { name: 'Alone', teamId: eng.id });
      assert.equal(one.status, 201);
      await receiver.waitFor(sub.path, 1, 5000);
      const batch = await f.owner.post('/v1/tasks/batch?expand=none', {
        tasks: [
          { name: 'First of two', teamId: eng.id },
          { name: 'Second of two', teamId: eng.id },
        ],
      });
      assert.equal(batch.status, 200);
      const got = await receiver.waitFor(sub.path, 3, 5000);
      assert.deepEqual(
        got.map((r) => r.json.data.name),
        ['Alone', 'First of two', 'Second of two'],
      );
    } finally {
      await idle.stop();
    }
  });
});
