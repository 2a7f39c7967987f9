// The live stream across real server processes (scripts/servers.ts): SIGTERM ends its streams cleanly
// and the process exits at once (both databases); on PostgreSQL, two processes on one database: a
// change made through one reaches a stream held by the other (NOTIFY), and a stream whose process is
// killed reconnects to the other with Last-Event-ID and gets every event it missed, once.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  api,
  freePort,
  type ScratchDatabase,
  scratchDatabase,
  startServer,
  TOKEN,
} from '../../../scripts/servers.ts';
import { onPostgres } from '../../test/helpers.ts';
import { closeConnections, openStream, type SseStream } from '../../test/sse.ts';

const scratch: ScratchDatabase = await scratchDatabase(
  onPostgres ? 'postgres' : 'sqlite',
  process.env.TEST_POSTGRES_URL ?? '',
  'cairn_stream',
);
after(async () => {
  await closeConnections();
  await scratch.drop();
});

async function ok(res: Promise<{ status: number; body: { id: string } } | null>) {
  const r = await res;
  assert.ok(r && (r.status === 200 || r.status === 201), JSON.stringify(r?.body));
  return r.body;
}

/** The next event's [type, entityId] and its SSE id. */
async function next(s: SseStream): Promise<{ event: [string, string]; id: string }> {
  const frame = await s.nextEvent(15_000);
  const data = JSON.parse(frame.data!);
  return { event: [data.type, data.entityId], id: frame.id! };
}

/** The id of the last event of the workspace, once the feed of `base` can read it. */
async function lastEventId(base: string, count: number): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const page = await ok(api(base, 'GET', '/v1/events?limit=100'));
    const data = (page as unknown as { data: { id: string }[] }).data;
    if (data.length >= count) return data[data.length - 1]!.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the feed never showed the events');
}

test('SIGTERM ends the open streams cleanly and the process exits promptly', async () => {
  const server = await startServer(scratch.url, await freePort());
  try {
    const s = await openStream(server.base, TOKEN);
    assert.equal(s.status, 200);
    assert.deepEqual((await s.next()).comments, ['stream open']);
    const stopped = server.stop();
    await s.ended;
    await stopped;
    assert.equal(server.process.exitCode, 0);
  } finally {
    if (server.process.exitCode === null) await server.kill();
  }
});

// Several processes share one PostgreSQL; SQLite is one process's (docs/deployment.md): no such test there.
const acrossProcesses = onPostgres ? test : () => {};
acrossProcesses(
  'two processes on one PostgreSQL: a change through one reaches the other; a killed one is resumed elsewhere',
  async () => {
    const a = await startServer(scratch.url, await freePort());
    const b = await startServer(scratch.url, await freePort());
    try {
      const team = await ok(api(a.base, 'POST', '/v1/teams', { name: 'Across' }));
      const task = (name: string) =>
        ok(api(a.base, 'POST', '/v1/tasks?expand=none', { name, teamId: team.id }));
      const start = await lastEventId(a.base, 1);

      const onB = await openStream(b.base, TOKEN, { lastEventId: start });
      assert.equal(onB.status, 200);
      const first = await task('Made through A');
      const got = await next(onB);
      assert.deepEqual(got.event, ['task.created', first.id]);

      // B dies without a word; what is made meanwhile reaches its client when it resumes on A.
      await b.kill();
      await onB.ended;
      const missed = [await task('Missed 1'), await task('Missed 2'), await task('Missed 3')];
      const onA = await openStream(a.base, TOKEN, { lastEventId: got.id });
      assert.equal(onA.status, 200);
      const live = await task('After the resume');
      const events = [];
      for (let i = 0; i < 4; i++) events.push((await next(onA)).event);
      assert.deepEqual(events, [
        ...missed.map((t): [string, string] => ['task.created', t.id]),
        ['task.created', live.id],
      ]);
      // Nothing twice: the next event is the next change.
      const marker = await task('Marker');
      assert.deepEqual((await next(onA)).event, ['task.created', marker.id]);
      onA.close();
    } finally {
      await a.kill();
      if (b.process.exitCode === null && b.process.signalCode === null) await b.kill();
    }
  },
);
