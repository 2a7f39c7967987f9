// One live stream (GET /v1/events/stream): what its reader may see of each batch the hub hands it
// (events/live.ts), as Server-Sent Events on a Readable that Fastify sends as the response. Written
// by hand rather than through an SSE plugin (@fastify/sse, fastify-sse-v2): the frames here are one
// JSON line each (id, event, data), and what a stream needs beyond them is what the plugins do not
// do: measure what waits for a slow reader and close past a bound instead of buffering without end,
// send the same precomputed frame to many streams, and answer through Fastify's own reply, so
// that the response's headers and hooks (X-Request-Id, RateLimit-*, the OpenAPI check of the tests)
// are those of every other route.

import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { WorkspaceRef } from '../../context.ts';
import { seesGroup } from '../../db/listing.ts';
import type { Batch, LiveEvent, LiveSubscriber, Mark } from '../../events/live.ts';
import { isBefore } from '../../events/prune.ts';
import type { Position } from '../../events/stream.ts';
import type { Viewer } from '../../events/viewers.ts';
import { streamsDropped, streamsOpen } from '../../metrics/metrics.ts';

/** Which events a stream carries, beside visibility: all when a field is absent. */
export interface StreamFilter {
  types: ReadonlySet<string> | null;
  teamId: string | undefined;
  projectId: string | undefined;
}

/** The `data` of an event on the stream (schema.ts StreamEvent). */
interface StreamEventData {
  id: string;
  type: string;
  entityType: string;
  entityId: string;
  teamId: string | null;
  projectId: string | null;
}

export interface LiveStreamOptions {
  workspace: WorkspaceRef;
  userId: string;
  position: Position;
  filter: StreamFilter;
  /** The response the Readable is piped to: what it holds counts as unsent too. */
  response: ServerResponse;
  bufferBytes: number;
  retentionDays: number;
  /** Called once when the stream has ended, however it ended. */
  onEnd(): void;
  onDropped(unsent: number): void;
}

/** How long a stream that is ended (the server closes) has to send what it holds. */
const END_MS = 1000;

/** A frame that reads the same to every reader who may see the event: cached on the event. */
const shared = new WeakMap<LiveEvent, string>();

/**
 * The bytes of a batch's frames `picked` (by index), when each reads the same to everyone: made once
 * per batch and selection, and the same Buffer handed to every stream that sends just those (most
 * streams of a workspace see the same), so a thousand streams hold one copy, encoded once.
 */
const encoded = new WeakMap<Batch, Map<string, Buffer>>();

function bytesFor(batch: Batch, picked: number[], parts: string[]): Buffer {
  let byBatch = encoded.get(batch);
  if (!byBatch) {
    byBatch = new Map();
    encoded.set(batch, byBatch);
  }
  const key = picked.length === batch.events.length ? '*' : picked.join(',');
  let bytes = byBatch.get(key);
  if (!bytes) {
    bytes = Buffer.from(parts.join(''));
    byBatch.set(key, bytes);
  }
  return bytes;
}

function frameOf(event: LiveEvent, teamId: string | null): string {
  const { row, facts } = event;
  const data: StreamEventData = {
    id: row.id,
    type: row.type,
    entityType: row.entity_type,
    entityId: row.entity_id,
    teamId,
    projectId: facts?.projectId ?? null,
  };
  return `id: ${event.id}\nevent: ${row.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class LiveStream implements LiveSubscriber {
  readonly workspace: WorkspaceRef;
  readonly userId: string;
  readonly readable: Readable;
  readonly #filter: StreamFilter;
  readonly #response: ServerResponse;
  readonly #bound: number;
  readonly #options: LiveStreamOptions;
  #position: Position;
  /** The SSE id of #position when the stream moved there past events it did not send. */
  #unsentId: string | undefined;
  #closed = false;

  constructor(options: LiveStreamOptions) {
    this.workspace = options.workspace;
    this.userId = options.userId;
    this.#position = options.position;
    this.#filter = options.filter;
    this.#response = options.response;
    this.#bound = options.bufferBytes;
    this.#options = options;
    this.readable = new Readable({ read() {} });
    this.readable.on('close', () => this.#ended());
    streamsOpen.inc();
    // Headers go out with the first bytes: the client knows at once that the stream is open.
    this.readable.push(': stream open\n\n');
  }

  get position(): Position {
    return this.#position;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes written but not yet taken by the reader's connection (the kernel's buffer aside). */
  unsent(): number {
    return this.readable.readableLength + this.#response.writableLength;
  }

  deliver(batch: Batch, end: Mark, paged: boolean): boolean {
    if (this.#closed) return true;
    const viewer = batch.viewers.get(this.userId);
    const parts: string[] = [];
    const picked: number[] = [];
    let alike = true;
    let lastSent: string | undefined;
    if (viewer) {
      batch.events.forEach((event, i) => {
        if (!isBefore(this.#position, event.position)) return;
        const frame = this.#frame(event, viewer);
        if (frame === undefined) return;
        parts.push(frame.text);
        picked.push(i);
        alike &&= frame.shared;
        lastSent = event.id;
      });
    }
    const out =
      parts.length === 0 ? undefined : alike ? bytesFor(batch, picked, parts) : Buffer.from(parts.join(''));
    const size = out?.length ?? 0;
    if (!paged && size > 0 && this.unsent() + size > this.#bound) {
      // Its reader took what came before: this batch is just large; send it in pages instead.
      if (this.unsent() <= this.#bound / 4) return false;
      this.#drop();
      return true;
    }
    if (isBefore(this.#position, end.position)) {
      this.#position = end.position;
      this.#unsentId = lastSent === end.id ? undefined : end.id;
    }
    // A page of its own follows room(): bounded by the page, it is never a reason to close.
    if (out) this.#push(out, !paged);
    return true;
  }

  /** The event's frame for this reader, or undefined when it may not see it or the filter leaves it out. */
  #frame(event: LiveEvent, viewer: Viewer): { text: string; shared: boolean } | undefined {
    const { facts, row } = event;
    const f = this.#filter;
    if (!facts?.sees(viewer)) return undefined;
    if (f.types && !f.types.has(row.type)) return undefined;
    if (f.projectId !== undefined && facts.projectId !== f.projectId) return undefined;
    if (
      f.teamId !== undefined &&
      !(facts.groupIds.includes(f.teamId) && seesGroup(viewer.groups, f.teamId))
    ) {
      return undefined;
    }
    // One group (anything but a project of several teams): the same frame for everyone who sees it.
    if (facts.groupIds.length <= 1) {
      let text = shared.get(event);
      if (text === undefined) {
        text = frameOf(event, facts.groupIds[0] ?? null);
        shared.set(event, text);
      }
      return { text, shared: true };
    }
    // A project's first team this reader sees: a team hidden from it is never named.
    const teamId = facts.groupIds.find((id) => seesGroup(viewer.groups, id)) ?? null;
    return { text: frameOf(event, teamId), shared: false };
  }

  reset(at: Mark): void {
    const days = this.#options.retentionDays;
    const data = {
      reason: `Events after the given position are no longer kept (they are kept ${days} days): read everything again, then carry on from here`,
    };
    this.#position = at.position;
    this.#unsentId = undefined;
    this.#push(`id: ${at.id}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * A comment line; with an `id` line when the stream moved past events it did not send, so that a
   * reconnecting client resumes from there (an id with no data moves the client's Last-Event-ID and
   * dispatches nothing, per the HTML standard's event stream interpretation).
   */
  heartbeat(): void {
    if (this.#closed) return;
    const id = this.#unsentId === undefined ? '' : `id: ${this.#unsentId}\n`;
    this.#unsentId = undefined;
    this.#push(`: heartbeat\n${id}\n`);
  }

  room(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.#closed && this.unsent() > this.#bound / 4) return false;
        clearInterval(timer);
        resolve();
        return true;
      };
      const timer = setInterval(check, 20);
      timer.unref();
      check();
    });
  }

  /**
   * Ends the stream cleanly: what was written is sent, then the response ends; resolves once it has
   * (a reader that does not take the rest within END_MS is cut off), so that a server closing can
   * then close the connection as idle.
   */
  end(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#response.destroy(), END_MS);
      this.#response.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (!this.readable.readableEnded) this.readable.push(null);
    });
  }

  #push(text: string | Buffer, bounded = true): void {
    if (this.#closed) return;
    this.readable.push(text);
    if (bounded && this.unsent() > this.#bound) this.#drop();
  }

  /** Its reader does not take what is sent: close the connection rather than hold more for it. */
  #drop(): void {
    if (this.#closed) return;
    this.#options.onDropped(this.unsent());
    streamsDropped.inc();
    this.#response.destroy();
    this.readable.destroy();
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    streamsOpen.dec();
    this.#options.onEnd();
  }
}
