// The bound of a live stream's buffer, without a network: a stream whose reader does not take what
// was sent is closed past the bound; a large batch for a reader that keeps up is refused (the hub
// then sends it in pages) rather than closing the stream; a page of its own is always taken.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import type { Batch, LiveEvent } from '../../events/live.ts';
import type { Viewer } from '../../events/viewers.ts';
import { LiveStream } from './live-stream.ts';

const workspace = { id: 'w', name: 'W', code: 1 };
const viewer: Viewer = { id: 'u', role: 'member', groups: { all: true, visible: new Set(['g']) } };

/** A response whose socket holds `held` bytes its reader has not taken. */
function response(held: number) {
  const r = {
    writableLength: held,
    destroyed: false,
    destroy() {
      r.destroyed = true;
    },
    once() {},
  };
  return r;
}

function event(seq: number): LiveEvent {
  return {
    row: {
      tx: 0,
      seq,
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      type: 'task.updated',
      entity_type: 'task',
      entity_id: '00000000-0000-4000-8000-000000000001',
      actor_id: 'u',
      created_at: '2026-11-21T10:00:00.000Z',
      previous_attributes: null,
    },
    position: { tx: 0, seq },
    id: `position-${seq}`,
    facts: { groupIds: ['g'], projectId: null, sees: () => true },
  };
}

function batch(
  from: number,
  count: number,
): { batch: Batch; end: { position: { tx: number; seq: number }; id: string } } {
  const events = Array.from({ length: count }, (_, i) => event(from + i));
  const last = events[events.length - 1]!;
  return {
    batch: { events, viewers: new Map([['u', viewer]]) },
    end: { position: last.position, id: last.id },
  };
}

function streamOn(res: ReturnType<typeof response>, bufferBytes = 4096) {
  const dropped: number[] = [];
  const stream = new LiveStream({
    workspace,
    userId: 'u',
    position: { tx: 0, seq: 0 },
    filter: { types: null, teamId: undefined, projectId: undefined },
    response: res as unknown as ServerResponse,
    bufferBytes,
    retentionDays: 7,
    onEnd: () => {},
    onDropped: (n) => dropped.push(n),
  });
  stream.readable.read(); // the opening comment, taken by the reader
  return { stream, dropped };
}

test('a reader that takes what is sent gets each batch, its frames exact', () => {
  const res = response(0);
  const { stream, dropped } = streamOn(res);
  const { batch: b, end } = batch(1, 2);
  assert.equal(stream.deliver(b, end, false), true);
  const text = String(stream.readable.read());
  const data = (seq: number) =>
    JSON.stringify({
      id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      type: 'task.updated',
      entityType: 'task',
      entityId: '00000000-0000-4000-8000-000000000001',
      teamId: 'g',
      projectId: null,
    });
  assert.equal(
    text,
    `id: position-1\nevent: task.updated\ndata: ${data(1)}\n\n` +
      `id: position-2\nevent: task.updated\ndata: ${data(2)}\n\n`,
  );
  assert.deepEqual(stream.position, { tx: 0, seq: 2 });
  // The same batch again (a stream that caught up past it): nothing twice.
  assert.equal(stream.deliver(b, end, false), true);
  assert.equal(stream.readable.read(), null);
  assert.deepEqual(dropped, []);
});

test('a reader that does not take what is sent is closed past the bound, not buffered for', () => {
  const res = response(0);
  const { stream, dropped } = streamOn(res, 4096);
  let seq = 1;
  // Nothing is read: each batch waits in the stream's buffer until the bound is passed.
  while (dropped.length === 0 && seq < 200) {
    const { batch: b, end } = batch(seq, 1);
    stream.deliver(b, end, false);
    seq += 1;
  }
  assert.equal(dropped.length, 1);
  // Closed when the next batch would pass the bound: it never held more.
  assert.ok(dropped[0]! > 4096 / 2 && dropped[0]! <= 4096, `unsent ${dropped[0]}`);
  assert.equal(res.destroyed, true);
  assert.equal(stream.readable.destroyed, true);
});

test('what the connection holds counts too: a heartbeat past the bound closes the stream', () => {
  const res = response(5000);
  const { stream, dropped } = streamOn(res, 4096);
  stream.heartbeat();
  assert.equal(dropped.length, 1);
  assert.equal(res.destroyed, true);
});

test('a large batch for a reader that keeps up is refused (sent in pages instead); a page is always taken', () => {
  const res = response(0);
  const { stream, dropped } = streamOn(res, 4096);
  const { batch: big, end } = batch(1, 40); // about 12 kB of frames
  assert.equal(stream.deliver(big, end, false), false);
  assert.equal(stream.readable.read(), null);
  assert.deepEqual(stream.position, { tx: 0, seq: 0 });
  assert.equal(stream.deliver(big, end, true), true);
  assert.equal((String(stream.readable.read()).match(/^id: /gm) ?? []).length, 40);
  assert.deepEqual(stream.position, { tx: 0, seq: 40 });
  assert.deepEqual(dropped, []);
});
