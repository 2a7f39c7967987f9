// The warning per failed delivery attempt, rate-limited per subscription (failure-log.ts).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { caughtUp, ISO_PATTERN, setup } from '../../test/helpers.ts';
import { startReceiver } from '../../test/receiver.ts';
import { type FailedAttempt, FailureLog } from './failure-log.ts';
import { startWorker } from './worker.ts';

interface Line {
  fields: Record<string, unknown>;
  message: string;
}

/** A logger that keeps its warnings. */
function capture() {
  const warnings: Line[] = [];
  return {
    warnings,
    log: {
      info() {},
      warn: (fields: unknown, message?: string) => {
        warnings.push({ fields: fields as Record<string, unknown>, message: message ?? '' });
      },
      error: (o: unknown, m?: string) => console.error(m, o),
    },
  };
}

const attempt = (subscription: string, n: number): FailedAttempt => ({
  subscription,
  event: `event-${n}`,
  eventType: 'task.created',
  attempt: n,
  replay: false,
  status: 500,
  error: 'HTTP 500',
  nextAttemptAt: '2026-01-01T00:00:05.000Z',
});

describe('FailureLog', () => {
  test('one line a minute per subscription, the next saying how many were left out', () => {
    let clock = 0;
    const { warnings, log } = capture();
    const failures = new FailureLog(log, () => clock);
    failures.failed(attempt('a', 1));
    failures.failed(attempt('b', 1));
    for (let n = 2; n <= 5; n++) {
      clock += 10_000;
      failures.failed(attempt('a', n));
    }
    assert.deepEqual(
      warnings.map((w) => [w.fields.subscription, w.fields.attempt, w.fields.suppressed]),
      [
        ['a', 1, 0],
        ['b', 1, 0],
      ],
    );
    clock = 60_000;
    failures.failed(attempt('a', 6));
    failures.failed(attempt('a', 7));
    assert.deepEqual(warnings[2], {
      fields: { ...attempt('a', 6), suppressed: 4 },
      message: 'webhook delivery attempt failed',
    });
    assert.equal(warnings.length, 3);
  });
});

describe('a failing receiver, through the worker', async () => {
  const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
  const receiver = await startReceiver();
  const { warnings, log } = capture();
  const worker = startWorker({
    database: f.database,
    publicUrl: 'http://cairn.test',
    allowPrivate: true,
    retentionDays: 7,
    concurrency: 2,
    log,
    pollMs: 50,
  });
  after(async () => {
    await worker.stop();
    await receiver.close();
  });
  const team = (await f.owner.post('/v1/teams', { name: 'Failing' })).body;

  test('each failed attempt is a warning naming subscription, event, status and next attempt, at most one a minute', async () => {
    const hookUrl = `${receiver.base}/down`;
    const sub = (await f.owner.post('/v1/webhooks/subscribe', { hookUrl, event: 'task.created' })).body;
    // Three quick failures (Retry-After: 1 s), then the receiver is back.
    receiver.answer('/down', (_r, nth) =>
      nth <= 3 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Unlucky', teamId: team.id })).body;
    const got = await receiver.waitFor('/down', 4, 20_000);
    await caughtUp(f.database.db, sub.id);
    const mine = warnings.filter((w) => w.fields.subscription === sub.id);
    assert.equal(mine.length, 1, JSON.stringify(warnings));
    const { nextAttemptAt, ...fields } = mine[0]!.fields;
    assert.deepEqual(fields, {
      subscription: sub.id,
      event: got[0]!.json.id,
      eventType: 'task.created',
      attempt: 1,
      replay: false,
      status: 503,
      error: 'HTTP 503',
      suppressed: 0,
    });
    assert.match(String(nextAttemptAt), ISO_PATTERN);
    assert.equal(mine[0]!.message, 'webhook delivery attempt failed');
    assert.equal(got[3]!.json.data.id, task.id);
    // The log line is not the whole story: the delivery log still has every attempt.
    const attempts = (await f.owner.get(`/v1/webhooks/subscribe/${sub.id}/deliveries`)).body.data;
    assert.deepEqual(
      attempts.map((d: { statusCode: number }) => d.statusCode),
      [200, 503, 503, 503],
    );
    await worker.stop();
  });
});
