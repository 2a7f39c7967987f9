// Managing subscriptions (docs/integrations.md "Managing subscriptions"): patterns, the routing headers,
// 409 on an overlap (also when subscribes race), change in place, roll the secret.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { advanceClock } from '../../clock.ts';
import { caughtUp, ISO_PATTERN, problem, setup } from '../../test/helpers.ts';
import { type Received, startReceiver } from '../../test/receiver.ts';
import { EVENT_TYPES } from '../registry.ts';
import { startWorker } from './worker.ts';

const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const receiver = await startReceiver();
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

const team = (await f.owner.post('/v1/teams', { name: 'Hooks' })).body;

let hooks = 0;
const nextPath = () => `/managed/${++hooks}`;

async function subscribe(event: string, path = nextPath(), as = f.owner) {
  const res = await as.post('/v1/webhooks/subscribe', { hookUrl: `${receiver.base}${path}`, event });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { path, id: res.body.id as string, secret: res.body.secret as string };
}

async function newTask(name: string) {
  const res = await f.owner.post('/v1/tasks?expand=none', { name, teamId: team.id });
  assert.equal(res.status, 201);
  return res.body as { id: string };
}

function verify(secret: string, r: Received): unknown {
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
}

async function count(): Promise<number> {
  const rows = await f.database.db.selectFrom('webhook_subscriptions').select('id').execute();
  return rows.length;
}

describe('event names and patterns', () => {
  test('`*` receives every event, `task.*` every task event; each delivery names its type and subscription', async () => {
    // A subscription starts after the settled stream (events/stream.ts head): on PostgreSQL the team's
    // event settles once every older transaction of the server has ended (other test files' too).
    // Until then it could land after the start, and `*` would receive it.
    while (
      !(await f.owner.get('/v1/events?type=team.created')).body.data.some(
        (e: { data: { id: string } }) => e.data.id === team.id,
      )
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const all = await subscribe('*');
    const tasks = await subscribe('task.*');
    const task = await newTask('Patterned');
    await f.owner.post('/v1/tasks', { id: task.id, name: 'Patterned 2' });
    const project = (await f.owner.post('/v1/projects', { name: 'Patterned', teamId: team.id })).body;
    // In stream order: once the last task event is in, nothing else of the stream came before it.
    const last = await newTask('Last');
    const everything = await receiver.waitFor(all.path, 4);
    assert.deepEqual(
      everything.map((r) => [r.json.type, r.json.data.id]),
      [
        ['task.created', task.id],
        ['task.updated', task.id],
        ['project.created', project.id],
        ['task.created', last.id],
      ],
    );
    const ofTasks = await receiver.waitFor(tasks.path, 3);
    assert.deepEqual(
      ofTasks.map((r) => [r.json.type, r.json.data.id]),
      [
        ['task.created', task.id],
        ['task.updated', task.id],
        ['task.created', last.id],
      ],
    );
    for (const [sub, got] of [
      [all, everything],
      [tasks, ofTasks],
    ] as const) {
      for (const r of got) {
        assert.equal(r.headers['cairn-event-type'], r.json.type);
        assert.equal(r.headers['cairn-subscription-id'], sub.id);
        assert.deepEqual(verify(sub.secret, r), r.json);
      }
    }
    const listed = (await f.owner.get(`/v1/webhooks/subscribe/${tasks.id}`)).body;
    assert.equal(listed.event, 'task.*');
    for (const sub of [all, tasks]) await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
  });

  test('an unknown name or pattern is 400 naming the valid forms, and subscribes nothing', async () => {
    const before = await count();
    for (const event of ['task.exploded', 'tasks.*', 'task.**', '*.created', 'task*', '**', '']) {
      const res = await f.owner.post('/v1/webhooks/subscribe', { hookUrl: `${receiver.base}/bad`, event });
      const body = problem(res, 400, 'validation_failed');
      assert.equal(body.errors[0].path, '/body/event', event);
      if (event !== '') {
        assert.match(body.errors[0].message, /^must be one of: task\.created, .*, \*, task\.\*, project\.\*/);
      }
    }
    assert.equal(await count(), before);
  });

  test("the document's subscribe body: event is an enum of the names, `*` and each `<resource>.*`", async () => {
    const doc = (await f.anonymous.get('/openapi.json')).body;
    const body = doc.paths['/v1/webhooks/subscribe'].post.requestBody.content['application/json'].schema;
    const [create, update] = body.anyOf;
    const kinds = [...new Set(EVENT_TYPES.map((t) => t.slice(0, t.indexOf('.'))))];
    const expected = [...EVENT_TYPES, '*', ...kinds.map((k) => `${k}.*`)];
    for (const branch of [create, update]) {
      assert.deepEqual(branch.properties.event.enum, expected);
      assert.match(branch.properties.event.description, /`\*` for every event/);
    }
    assert.deepEqual(create.required.sort(), ['event', 'hookUrl']);
    assert.deepEqual(update.required, ['id']);
    const roll = doc.paths['/v1/webhooks/subscribe/{id}/roll-secret'].post;
    assert.equal(roll.operationId, 'rollWebhookSecret');
    assert.ok(roll.responses['200'].content['application/json'].schema.properties.secret.description);
    const sub = doc.components.schemas.WebhookSubscription.properties;
    assert.ok(sub.updatedAt.description && sub.previousSecretExpiresAt.description);
  });
});

describe('one receiver, one subscription per event', () => {
  test('the same URL with the same or an overlapping event is 409 naming the existing one', async () => {
    const path = nextPath();
    const first = await subscribe('task.created', path);
    const before = await count();
    for (const [hookUrl, event] of [
      [`${receiver.base}${path}`, 'task.created'],
      [`${receiver.base}${path}`, 'task.*'],
      [`${receiver.base}${path}`, '*'],
      // The same receiver, written otherwise: scheme and host case, a fragment (never sent).
      [`HTTP://127.0.0.1:${new URL(receiver.base).port}${path}#again`, 'task.created'],
    ]) {
      const res = await f.owner.post('/v1/webhooks/subscribe', { hookUrl, event });
      const body = problem(res, 409, 'conflict');
      assert.equal(
        body.detail,
        `Subscription ${first.id} already sends task.created to this hookUrl, which overlaps ${event}; change that subscription (POST with its id) or remove it first`,
      );
    }
    assert.equal(await count(), before);
    // Events that do not overlap, another path, another person: no conflict.
    const projects = await subscribe('project.*', path);
    const elsewhere = await subscribe('task.created', `${path}/other`);
    const member = await f.newUser('member');
    const theirs = await subscribe('task.created', path, member.api);
    for (const sub of [first, projects, elsewhere]) await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
    await member.api.delete(`/v1/webhooks/subscribe/${theirs.id}`);
  });

  test('subscribes racing for one URL: one 201, the others 409', async () => {
    for (let round = 0; round < 5; round++) {
      const hookUrl = `${receiver.base}${nextPath()}`;
      const answers = await Promise.all(
        ['task.created', 'task.*', '*', 'task.created', 'task.*', '*', 'task.created', 'task.*'].map(
          (event) => f.owner.post('/v1/webhooks/subscribe', { hookUrl, event }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(
        statuses,
        [201, 409, 409, 409, 409, 409, 409, 409],
        JSON.stringify(answers.map((r) => r.body)),
      );
      const made = answers.find((r) => r.status === 201)!.body.id;
      for (const res of answers.filter((r) => r.status === 409))
        assert.match(res.body.detail, new RegExp(made));
      await f.owner.delete(`/v1/webhooks/subscribe/${made}`);
    }
  });
});

describe('changing a subscription in place', () => {
  test('POST with id changes hookUrl and event, keeps the secret and the place in the stream', async () => {
    const sub = await subscribe('task.created');
    // The receiver is down: the first event waits at the head of the subscription's stream.
    receiver.answer(sub.path, () => ({ status: 503 }));
    const stuck = await newTask('Waiting');
    await receiver.waitFor(sub.path, 1);
    // The failure is recorded: the next attempt is due in about 5 s.
    let read = await f.owner.get(`/v1/webhooks/subscribe/${sub.id}`);
    while (read.body.nextAttemptAt === null) {
      await new Promise((r) => setTimeout(r, 20));
      read = await f.owner.get(`/v1/webhooks/subscribe/${sub.id}`);
    }
    const moved = nextPath();
    const res = await f.owner.post(
      '/v1/webhooks/subscribe',
      { id: sub.id, hookUrl: `${receiver.base}${moved}`, event: 'task.*' },
      { 'if-match': String(read.headers.etag) },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      ...read.body,
      hookUrl: `${receiver.base}${moved}`,
      event: 'task.*',
      failingSince: null,
      nextAttemptAt: null,
      updatedAt: res.body.updatedAt,
    });
    assert.match(res.body.updatedAt, ISO_PATTERN);
    assert.ok(res.body.updatedAt > read.body.updatedAt);
    assert.notEqual(res.headers.etag, read.headers.etag);
    // The waiting event goes to the new URL at once (not at the old URL's next retry), then the rest
    // of the new event set, signed by the secret it always had.
    const changed = Date.now();
    const [first] = await receiver.waitFor(moved, 1);
    assert.ok(
      first!.at - changed < 3000,
      `the waiting event came ${first!.at - changed} ms after the change`,
    );
    await f.owner.post('/v1/tasks', { id: stuck.id, name: 'Waiting 2' });
    const got = await receiver.waitFor(moved, 2);
    assert.deepEqual(
      got.map((r) => [r.json.type, r.json.data.id]),
      [
        ['task.created', stuck.id],
        ['task.updated', stuck.id],
      ],
    );
    for (const r of got) assert.deepEqual(verify(sub.secret, r), r.json);
    // The version moved: the tag read before the change no longer holds.
    const stale = await f.owner.post(
      '/v1/webhooks/subscribe',
      { id: sub.id, event: 'task.created' },
      { 'if-match': String(read.headers.etag) },
    );
    problem(stale, 412, 'precondition_failed');
    // Nothing changed: 200 with the subscription as it is, the same version.
    const same = await f.owner.post('/v1/webhooks/subscribe', { id: sub.id, event: 'task.*' });
    assert.equal(same.status, 200);
    assert.equal(same.body.updatedAt, res.body.updatedAt);
    await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
  });

  test('Idempotency-Key: a retried update replays its 200; a retried create is 409 (its secret is not kept)', async () => {
    const hookUrl = `${receiver.base}${nextPath()}`;
    const createKey = `subscribe-${Date.now()}`;
    const made = await f.owner.post(
      '/v1/webhooks/subscribe',
      { hookUrl, event: 'task.created' },
      { 'idempotency-key': createKey },
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const retried = await f.owner.post(
      '/v1/webhooks/subscribe',
      { hookUrl, event: 'task.created' },
      { 'idempotency-key': createKey },
    );
    assert.equal(
      problem(retried, 409, 'conflict').detail,
      'The first request with this Idempotency-Key succeeded (201); its answer held a secret that is shown only once, so it is not kept',
    );

    const updateKey = `update-${Date.now()}`;
    const change = { id: made.body.id, event: 'task.*' };
    const updated = await f.owner.post('/v1/webhooks/subscribe', change, { 'idempotency-key': updateKey });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.headers['idempotent-replayed'], undefined);
    // Changed again by someone else in between: the retry still answers what the update answered.
    await f.owner.post('/v1/webhooks/subscribe', { id: made.body.id, event: '*' });
    const again = await f.owner.post('/v1/webhooks/subscribe', change, { 'idempotency-key': updateKey });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, updated.body);
    assert.equal(again.headers.etag, updated.headers.etag);
    assert.equal((await f.owner.get(`/v1/webhooks/subscribe/${made.body.id}`)).body.event, '*');

    const kept = await f.database.db
      .selectFrom('idempotency_keys')
      .select(['key', 'status_code', 'response_body'])
      .where('key', 'in', [createKey, updateKey])
      .orderBy('status_code')
      .execute();
    assert.deepEqual(
      kept.map((r) => ({ ...r })),
      [
        { key: updateKey, status_code: 200, response_body: JSON.stringify(updated.body) },
        { key: createKey, status_code: 201, response_body: null },
      ],
    );
    assert.equal(JSON.stringify(kept).includes(made.body.secret), false);
    await f.owner.delete(`/v1/webhooks/subscribe/${made.body.id}`);
  });

  test('a change that would overlap another subscription is 409; an unknown id 404; bad values 400', async () => {
    const path = nextPath();
    const tasks = await subscribe('task.*', path);
    const docs = await subscribe('document.created', path);
    const before = (await f.owner.get(`/v1/webhooks/subscribe/${docs.id}`)).body;
    const clash = problem(
      await f.owner.post('/v1/webhooks/subscribe', { id: docs.id, event: 'task.updated' }),
      409,
      'conflict',
    );
    assert.match(
      clash.detail,
      new RegExp(`^Subscription ${tasks.id} already sends task\\.\\* to this hookUrl`),
    );
    problem(
      await f.owner.post('/v1/webhooks/subscribe', {
        id: '00000000-0000-4000-8000-000000000000',
        event: '*',
      }),
      404,
      'not_found',
    );
    const bad = problem(
      await f.owner.post('/v1/webhooks/subscribe', { id: docs.id, hookUrl: 'ftp://e.com/x' }),
      400,
      'validation_failed',
    );
    assert.equal(bad.errors[0].path, '/body/hookUrl');
    const other = await f.newWorkspace('Elsewhere');
    problem(await other.owner.post('/v1/webhooks/subscribe', { id: docs.id, event: '*' }), 404, 'not_found');
    assert.deepEqual((await f.owner.get(`/v1/webhooks/subscribe/${docs.id}`)).body, before);
    // Changing a subscription onto its own events again is no overlap.
    const itself = await f.owner.post('/v1/webhooks/subscribe', { id: tasks.id, event: 'task.created' });
    assert.equal(itself.status, 200);
    for (const sub of [tasks, docs]) await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
  });
});

describe("the tests' caughtUp with patterns", () => {
  test('caughtUp waits for `task.*` and `*` subscriptions: what they were going to send has been sent', async () => {
    const tasks = await subscribe('task.*');
    const all = await subscribe('*');
    const task = await newTask('Caught up');
    await f.owner.post('/v1/tasks', { id: task.id, name: 'Caught up 2' });
    // Last in the stream, and not a task event: `task.*` is caught up at the task's update.
    const project = (await f.owner.post('/v1/projects', { name: 'Caught up', teamId: team.id })).body;
    await caughtUp(f.database.db, tasks.id);
    await caughtUp(f.database.db, all.id);
    const sent = (path: string) =>
      receiver.received.filter((r) => r.path === path).map((r) => [r.json.type, r.json.data.id]);
    assert.deepEqual(sent(tasks.path), [
      ['task.created', task.id],
      ['task.updated', task.id],
    ]);
    assert.deepEqual(sent(all.path), [
      ['task.created', task.id],
      ['task.updated', task.id],
      ['project.created', project.id],
    ]);
    for (const sub of [tasks, all]) await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
  });
});

describe('replays of a pattern subscription', () => {
  test('a replay of an event no longer kept logs the type of the event, not the pattern', async () => {
    const sub = await subscribe('task.*');
    await newTask('Replayed, then purged');
    await receiver.waitFor(sub.path, 1);
    const log = async (n: number) => {
      for (;;) {
        const res = await f.owner.get(`/v1/webhooks/subscribe/${sub.id}/deliveries`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        if (res.body.data.length >= n) return res.body.data;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const [delivered] = await log(1);
    assert.equal(delivered.eventType, 'task.created');
    // The event is purged (past the retention) before the replay is sent.
    await f.database.db.deleteFrom('events').where('id', '=', delivered.eventId).execute();
    const retry = await f.owner.post(`/v1/webhooks/subscribe/${sub.id}/deliveries/${delivered.id}/retry`);
    assert.equal(retry.status, 202, JSON.stringify(retry.body));
    const [replayed] = await log(2);
    assert.deepEqual(
      {
        eventId: replayed.eventId,
        eventType: replayed.eventType,
        replay: replayed.replay,
        statusCode: replayed.statusCode,
        error: replayed.error,
      },
      {
        eventId: delivered.eventId,
        eventType: 'task.created',
        replay: true,
        statusCode: null,
        error: 'the event is no longer kept, or its creator cannot see it',
      },
    );
    // A replay queued before migration 0014 has no type of its own: the log falls back to the
    // subscription's event.
    await f.database.db
      .insertInto('webhook_replays')
      .values({
        workspace_id: f.ws.workspace.id,
        id: crypto.randomUUID(),
        subscription_id: sub.id,
        event_id: delivered.eventId,
        created_at: new Date().toISOString(),
        event_type: null,
      })
      .execute();
    worker.wake();
    const [older] = await log(3);
    assert.deepEqual([older.eventType, older.replay, older.statusCode], ['task.*', true, null]);
    assert.equal(receiver.received.filter((r) => r.path === sub.path).length, 1);
    await f.owner.delete(`/v1/webhooks/subscribe/${sub.id}`);
  });
});

// Last in the file: it moves this process's clock a day forward.
describe('rolling the secret', () => {
  test('200 {secret}; both secrets verify deliveries for 24 hours, then only the new one', async () => {
    const sub = await subscribe('task.created');
    const read = await f.owner.get(`/v1/webhooks/subscribe/${sub.id}`);
    problem(
      await f.owner.post(`/v1/webhooks/subscribe/${sub.id}/roll-secret`, undefined, { 'if-match': '"1-x"' }),
      412,
      'precondition_failed',
    );
    const res = await f.owner.post(`/v1/webhooks/subscribe/${sub.id}/roll-secret`, undefined, {
      'if-match': String(read.headers.etag),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['secret']);
    const rolled = res.body.secret as string;
    assert.match(rolled, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.notEqual(rolled, sub.secret);
    const after = (await f.owner.get(`/v1/webhooks/subscribe/${sub.id}`)).body;
    assert.ok(after.updatedAt > read.body.updatedAt);
    const expires = Date.parse(after.previousSecretExpiresAt) - Date.parse(after.updatedAt);
    assert.equal(expires, 24 * 3600_000);
    assert.equal(JSON.stringify(after).includes(rolled), false);

    await newTask('Rolled');
    const [during] = await receiver.waitFor(sub.path, 1);
    const signatures = String(during!.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2);
    for (const s of signatures) assert.match(s, /^v1,[A-Za-z0-9+/]+=*$/);
    assert.deepEqual(verify(rolled, during!), during!.json);
    assert.deepEqual(verify(sub.secret, during!), during!.json);

    advanceClock(24 * 3600_000 + 1000);
    assert.equal((await f.owner.get(`/v1/webhooks/subscribe/${sub.id}`)).body.previousSecretExpiresAt, null);
    await newTask('Rolled a day ago');
    const [, later] = await receiver.waitFor(sub.path, 2);
    assert.equal(String(later!.headers['webhook-signature']).split(' ').length, 1);
    assert.deepEqual(verify(rolled, later!), later!.json);
    assert.throws(() => verify(sub.secret, later!), /No matching signature found/);
    problem(
      await f.owner.post('/v1/webhooks/subscribe/00000000-0000-4000-8000-000000000000/roll-secret'),
      404,
      'not_found',
    );
    await caughtUp(f.database.db, sub.id);
    // Stopped here, before the file's database closes (the fixture's `after` runs before ours).
    await worker.stop();
  });
});
