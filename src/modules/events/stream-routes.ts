// GET /v1/events/stream (docs/decisions.md §9, docs/api.md "The live stream"): the events of GET
// /v1/events as Server-Sent Events, thin ({id, type, entityType, entityId, teamId, projectId}), for
// what the caller may see when each is sent. One hub per application (events/live.ts) reads the
// workspace's events once for every stream; live-stream.ts is one stream.
import { type Context, readContext } from '../../context.ts';
import { LiveHub } from '../../events/live.ts';
import { head, type Position, positionOf } from '../../events/stream.ts';
import type { App } from '../../http/app-type.ts';
import { auth } from '../../http/auth.ts';
import type { Cursors } from '../../http/cursor.ts';
import { RETRY_AFTER_SECONDS } from '../../http/error-handler.ts';
import { AppError, invalidRequest } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { errors } from '../../http/schemas.ts';
import { typesOf } from '../webhooks/patterns.ts';
import { LiveStream, type StreamFilter } from './live-stream.ts';
import { STREAM_RESPONSE, StreamHeaders, StreamQuery } from './stream-schema.ts';

/** How long batches gather at most (docs/api.md). */
const BATCH_MS = 100;

/** The position scope of a workspace: the feed's, so SSE ids and feed cursors are one notion. */
function scopeOf(workspaceId: string): string {
  return JSON.stringify(['events', workspaceId]);
}

/** The types a stream carries: null for all. */
function typesFilter(given: string[] | undefined): ReadonlySet<string> | null {
  if (!given || given.length === 0 || given.includes('*')) return null;
  return new Set(given.flatMap((name) => typesOf(name)));
}

/**
 * Where a stream starts: after the position or event id the client gave (Last-Event-ID, else `after`),
 * or the workspace's end now. A position of another database, or altered, is 400 invalid_cursor; an
 * event id that is not kept, 400 validation_failed; a position past the retention is not an error
 * (the stream starts with a reset event).
 */
async function startOf(
  ctx: Context,
  cursors: Cursors,
  header: string | undefined,
  after: string | undefined,
): Promise<{ position: Position; resumed: boolean }> {
  const given = header ?? after;
  const path = header !== undefined ? '/headers/last-event-id' : '/query/after';
  if (given === undefined)
    return { position: await head(ctx.db, ctx.dialect, ctx.workspace.id), resumed: false };
  const eventId = uuidRef(given.trim());
  if (eventId) {
    const found = await positionOf(ctx.db, ctx.workspace.id, eventId);
    if (!found)
      throw invalidRequest(path, 'no event with this id (events are kept for the retention period)');
    return { position: found, resumed: true };
  }
  try {
    const [tx, seq] = cursors.decode(scopeOf(ctx.workspace.id), given.trim(), 2);
    return { position: { tx: Number(tx), seq: Number(seq) }, resumed: true };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'invalid_cursor') throw error;
    throw new AppError(
      'invalid_cursor',
      'This position was not made by this database (another database or installation, or it was altered): ' +
        'give the id of the last event you processed instead, which every database reads',
      [{ path, message: 'not a position of this database' }],
    );
  }
}

export default async function streamRoutes(app: App): Promise<void> {
  const { database, cursors, config } = app.cairn;
  const hub = new LiveHub(database, {
    encode: (workspaceId, p) => cursors.encode(scopeOf(workspaceId), [p.tx, p.seq]),
    batchMs: BATCH_MS,
    heartbeatMs: config.streamHeartbeatMs,
    maxPerUser: config.streamMaxPerUser,
    log: app.log,
  });
  // Before the server stops taking connections: a stream is a request that never ends by itself, and
  // the close waits for every request.
  app.addHook('preClose', async () => hub.close());

  app.get(
    '/v1/events/stream',
    {
      schema: {
        tags: ['events'],
        operationId: 'streamEvents',
        summary: 'Changes as they happen, as Server-Sent Events (resumable with Last-Event-ID)',
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { 200: STREAM_RESPONSE, ...errors('invalid_cursor') },
      },
    },
    async (request, reply) => {
      const ctx = readContext(database, auth(request));
      const { actor, workspace } = ctx;
      const query = request.query;
      const filter: StreamFilter = {
        types: typesFilter(query.type),
        teamId: query.teamId,
        projectId: query.projectId,
      };
      const start = await startOf(ctx, cursors, request.headers['last-event-id'], query.after);
      if (hub.closed) throw new AppError('unavailable', 'The server is shutting down: connect again');
      if (!hub.admit(workspace.id, actor.id)) {
        throw new AppError(
          'rate_limited',
          `At most ${config.streamMaxPerUser} live streams per user at once on a server: close one first`,
          undefined,
          { 'retry-after': String(RETRY_AFTER_SECONDS) },
        );
      }
      const stream: LiveStream = new LiveStream({
        workspace,
        userId: actor.id,
        position: start.position,
        filter,
        response: reply.raw,
        bufferBytes: config.streamBufferBytes,
        retentionDays: config.webhookRetentionDays,
        onEnd: () => {
          hub.release(workspace.id, actor.id);
          hub.leave(stream);
        },
        onDropped: (unsent) =>
          request.log.warn({ unsent }, 'live stream closed: its reader does not take what is sent'),
      });
      hub.open(stream, start.resumed).catch((error) => {
        request.log.error({ err: error }, 'live stream: cannot start');
        void stream.end();
      });
      // `Connection: close`: when the stream ends (the server closing, say) its connection ends with
      // it, rather than wait idle for another request that a stream's client never sends on it.
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-accel-buffering', 'no')
        .header('connection', 'close');
      // A stream is the answer, not its schema's JSON: Fastify pipes it, unserialized.
      return reply.send(stream.readable as never);
    },
  );
}
