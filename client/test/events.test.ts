// The events feed walked by syncEvents, and verifyWebhook on real deliveries of a real Cairn's worker.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { prune } from '../../src/modules/webhooks/queue.ts';
import { startWorker } from '../../src/modules/webhooks/worker.ts';
import { type Receiver, startReceiver } from '../../src/test/receiver.ts';
import { FeedPositionExpired, latestPosition, syncEvents } from '../src/index.ts';
import { verifyWebhook, WebhookError } from '../src/webhooks.ts';
import { startCairn } from './cairn.ts';

const cairn = await startCairn({ CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const api = cairn.client();
const team = await api.upsertTeam({ body: { name: 'Feed' } });
/** Every event from `from` to now, and the position to store. */
async function drainOnce(from: string, pageSize = 100) {
  const events: { type: string; id: string; data: { id?: unknown } }[] = [];
  let position = from;
  for await (const page of syncEvents(api, { from, pageSize })) {
    events.push(...page.events);
    position = page.position;
  }
  return { events, position };
}

/**
 * drainOnce, asked again until it holds `n` events: on PostgreSQL the feed shows an event once no older
 * transaction still runs (src/events/stream.ts), and other test files' transactions share the server.
 */
async function drain(from: string, n = 0, pageSize = 100) {
  const until = Date.now() + 10_000;
  for (;;) {
    const got = await drainOnce(from, pageSize);
    if (got.events.length >= n || Date.now() > until) return got;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('syncEvents', () => {
  test('walks from the start in pages, then carries on from the stored position only', async () => {
    const first = await api.upsertTask({ body: { name: 'First', teamId: team.id } });
    const all = await drain('start', 2, 1);
    assert.deepEqual(
      all.events.map((e) => e.type),
      ['team.created', 'task.created'],
    );
    assert.equal(all.events[1]!.data.id, first.id);
    const second = await api.upsertTask({ body: { name: 'Second', teamId: team.id } });
    const next = await drain(all.position, 1);
    assert.deepEqual(
      next.events.map((e) => [e.type, e.data.id]),
      [['task.created', second.id]],
    );
    assert.deepEqual((await drain(next.position)).events, []);
    // An event id is a position too.
    const fromId = await drain(all.events[1]!.id, 1);
    assert.deepEqual(
      fromId.events.map((e) => e.data.id),
      [second.id],
    );
  });

  test('latest starts now, without the history', async () => {
    const now = await latestPosition(api);
    const third = await api.upsertTask({ body: { name: 'Third', teamId: team.id } });
    assert.deepEqual(
      (await drain(now, 1)).events.map((e) => e.data.id),
      [third.id],
    );
    const viaFrom = syncEvents(api, { from: 'latest' });
    assert.deepEqual((await viaFrom.next()).value?.events, []);
  });

  test('a position older than retention is FeedPositionExpired, a cursor and an event id alike', async () => {
    const early = await latestPosition(api);
    const { events } = await drain('start');
    const kept = events.at(-1)!.id;
    const gone = await api.upsertTask({ body: { name: 'Pruned', teamId: team.id } });
    const before = await drain(early, 1);
    assert.deepEqual(
      before.events.map((e) => e.data.id),
      [gone.id],
    );
    // The newest event of the installation always stays (events/prune.ts): here another workspace's.
    const elsewhere = await cairn.f.newWorkspace('Elsewhere');
    assert.equal((await elsewhere.owner.post('/v1/teams', { name: 'Newest' })).status, 201);
    // As the hourly pruning does once the retention has passed (here: everything up to a minute ahead).
    await prune(cairn.f.database.db, new Date(Date.now() + 60_000).toISOString());
    const expired = (cause: string) => (e: unknown) => {
      assert.ok(e instanceof FeedPositionExpired);
      assert.equal(e.code, 'cursor_expired');
      assert.equal(e.status, 400);
      assert.equal((e.cause as { code: string }).code, cause);
      return true;
    };
    // A stored nextCursor from before the pruned task's event: the server says cursor_expired.
    await assert.rejects(drain(early), expired('cursor_expired'));
    // An event id it no longer keeps.
    await assert.rejects(drain(kept), expired('validation_failed'));
    // The position after the last pruned event missed nothing: it reads on.
    assert.deepEqual((await drain(before.position)).events, []);
    // Walking everything again from the start works.
    assert.deepEqual((await drain('start')).events, []);
  });
});

describe('verifyWebhook', () => {
  // Stopped by this suite's after, before the file's own (which closes the database under the worker).
  let receiver: Receiver;
  let worker: ReturnType<typeof startWorker>;
  before(async () => {
    receiver = await startReceiver();
    worker = startWorker({
      database: cairn.f.database,
      publicUrl: 'http://cairn.test',
      allowPrivate: true,
      retentionDays: 7,
      concurrency: 2,
      log: { info() {}, warn() {}, error: (o: unknown, m?: string) => console.error(m, o) },
      pollMs: 50,
    });
  });
  after(async () => {
    await worker.stop();
    await receiver.close();
  });

  test('a real delivery verifies to its typed event; a bad signature, a stale timestamp and a replay do not', async () => {
    const made = await api.subscribeWebhook({
      body: { hookUrl: `${receiver.base}/hook`, event: 'task.created' },
    });
    // A new subscription is 201 {id, secret}; with an id, an update is 200 with the subscription.
    assert.ok('secret' in made);
    const { secret } = made;
    const task = await api.upsertTask({ body: { name: 'Delivered', teamId: team.id } });
    const [delivery] = await receiver.waitFor('/hook', 1, 10_000);
    const seen = new Set<string>();
    const event = await verifyWebhook(secret, delivery!.headers, delivery!.body, { seen });
    assert.equal(event.type, 'task.created');
    assert.equal((event.data as { id: string }).id, task.id);
    assert.deepEqual([...seen], [delivery!.headers['webhook-id']]);

    const refused = async (reason: string, ...args: Parameters<typeof verifyWebhook>) =>
      assert.rejects(verifyWebhook(...args), (e) => e instanceof WebhookError && e.reason === reason);
    await refused('replayed', secret, delivery!.headers, delivery!.body, { seen });
    await refused('bad_signature', secret, delivery!.headers, delivery!.body.replace('Delivered', 'Forged'));
    await refused(
      'bad_signature',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      delivery!.headers,
      delivery!.body,
    );
    const id = String(delivery!.headers['webhook-id']);
    const old = new Date(Date.now() - 10 * 60_000);
    const stale = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, old, delivery!.body),
    };
    await refused('stale_timestamp', secret, stale, delivery!.body);
    await refused('missing_headers', secret, {}, delivery!.body);
    // A Headers object and a byte body work the same (a fetch-style server, a browser worker).
    const again = await verifyWebhook(
      secret,
      new Headers(delivery!.headers as Record<string, string>),
      new TextEncoder().encode(delivery!.body),
    );
    assert.deepEqual(again, event);
  });
});
