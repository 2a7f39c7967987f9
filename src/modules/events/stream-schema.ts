// GET /v1/events/stream (docs/api.md "The live stream"): its query, its Last-Event-ID header, and the
// shapes of what it sends. The answer is Server-Sent Events, not JSON: the schemas of the 200 describe
// each event's `data`, the frames themselves are described in words.
import { type Static, Type } from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../http/schemas.ts';
import { EVENT_TYPES } from '../registry.ts';
import { SUBSCRIBABLE } from '../webhooks/patterns.ts';

const Position = Type.String({ minLength: 1, maxLength: 2000 });

export const StreamQuery = Type.Object({
  type: Type.Optional(
    Type.Array(StringEnum(SUBSCRIBABLE), {
      maxItems: SUBSCRIBABLE.length,
      description:
        'Only events of these types: names, `*` or `<resource>.*` (`task.*`), as a webhook subscription names them; repeat, or comma-separate',
    }),
  ),
  teamId: Type.Optional(
    Type.Unsafe<string>({
      ...Uuid,
      description:
        'Only events about things of this team or area (a project: of any of its teams); a team the caller does not see matches nothing',
    }),
  ),
  projectId: Type.Optional(
    Type.Unsafe<string>({
      ...Uuid,
      description: 'Only events about this project, its tasks and task templates, and posts on them',
    }),
  ),
  after: Type.Optional({
    ...Position,
    description:
      'Start after this position (an event id of the stream, or a nextCursor of GET /v1/events), for a first connection; a Last-Event-ID header, which an EventSource sends when it reconnects, takes precedence',
  }),
});
export type StreamQuery = Static<typeof StreamQuery>;

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional({
    ...Position,
    description: 'The `id` of the last event received: the stream resumes after it, missing nothing',
  }),
});

const StreamEvent = Type.Object(
  {
    id: Type.Unsafe<string>({
      ...Uuid,
      description: 'The event (as in GET /v1/events and webhook deliveries)',
    }),
    type: StringEnum(EVENT_TYPES),
    entityType: Type.String({ description: 'What it is about: the first part of type (`task`)' }),
    entityId: Type.Unsafe<string>({ ...Uuid, description: 'The id of the thing it is about' }),
    teamId: Nullable(
      Type.Unsafe<string>({
        ...Uuid,
        description:
          "The team or area of the thing (a post's: its task's, project's or document's); a project's first team the caller sees",
      }),
    ),
    projectId: Nullable(
      Type.Unsafe<string>({
        ...Uuid,
        description: 'The project of the thing: a task, task template or post on them, or the project itself',
      }),
    ),
  },
  {
    description:
      'The `data` of an event named by its type (`event: task.updated`): what changed, without the thing itself (GET it, or read GET /v1/events, for that)',
  },
);

const StreamReset = Type.Object(
  { reason: Type.String() },
  {
    description:
      'The `data` of `event: reset`: the position given is older than the events kept; read everything again, then carry on (the stream goes on from here)',
  },
);

export const STREAM_RESPONSE = {
  description:
    'Server-Sent Events (text/event-stream), until the client or the server closes. Each event: `id:` its ' +
    'position (what Last-Event-ID and `after` take, and GET /v1/events as `cursor`), `event:` its type, `data:` one ' +
    'JSON line (StreamEvent). A `reset` event says the given position is past the retention. A comment line ' +
    '(`: heartbeat`) comes every 20 seconds by default; it may carry an `id:` line alone, which moves the ' +
    "client's Last-Event-ID past events it did not get (not its to see, or filtered out) without an event.",
  headers: {
    'Cache-Control': { type: 'string', description: '`no-cache`: never stored by a cache' },
    'X-Accel-Buffering': {
      type: 'string',
      description: '`no`: a proxy that buffers answers (nginx) passes events on at once',
    },
  },
  content: { 'text/event-stream': { schema: Type.Union([StreamEvent, StreamReset]) } },
};
