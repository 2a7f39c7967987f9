import { type Static, type TSchema, Type } from 'typebox';
import { CursorQuery, LimitQuery, Nullable, StringEnum, Timestamp, Uuid } from '../../http/schemas.ts';
import { Document } from '../documents/schema.ts';
import { Area, Team } from '../groups/schema.ts';
import { Post, Reaction } from '../posts/schema.ts';
import { ProjectTemplate } from '../project-templates/schema.ts';
import { EVENT_TYPES, type EventType as EventName, type Kind } from '../registry.ts';
import { TaskTemplate } from '../task-templates/schema.ts';

const EventType = StringEnum(EVENT_TYPES);

/**
 * The schema of each kind's `data`, by $id: a kind of the registry that events are about needs one
 * here (a new kind fails the typecheck until it has it). Task and Project are registered at the root
 * (app.ts); the others only inside their modules' plugins, so the events plugin adds them too
 * (RESOURCE_SCHEMAS).
 */
const DATA_SCHEMA: Record<Kind, string | null> = {
  task: 'Task',
  project: 'Project',
  document: 'Document',
  post: 'Post',
  team: 'Team',
  area: 'Area',
  task_template: 'TaskTemplate',
  project_template: 'ProjectTemplate',
  user: null,
};

/** The resource schemas the events plugin registers for itself (Post refers to Reaction). */
export const RESOURCE_SCHEMAS: TSchema[] = [
  Document,
  Reaction,
  Post,
  Team,
  Area,
  TaskTemplate,
  ProjectTemplate,
];

const PreviousAttributes = Nullable(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'The fields of data that the change changed, each with its value before the change (fields as GET ' +
        'with includeMarkdown returns them, without expansions; a description is {html, markdown}). Null ' +
        'only on an event recorded by a version of Cairn that did not record them yet',
      examples: [{ statusId: '0b6e9b1c-3f55-4a8e-9d1e-2f1c1a7d9b10', updatedAt: '2026-11-21T10:00:00.000Z' }],
    },
  ),
);

/** The $id of one event type's schema: task.updated → TaskUpdatedEvent. */
function variantId(type: string): string {
  const pascal = type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return `${pascal}Event`;
}

/** One event type: its `type`, its `data` as the resource, and previousAttributes on `*.updated`. */
function variant(type: EventName): TSchema {
  const kind = type.slice(0, type.indexOf('.')) as Kind;
  const data = DATA_SCHEMA[kind];
  if (data === null) throw new Error(`events/schema.ts: no data schema for ${kind}`);
  return Type.Object(
    {
      id: Uuid,
      type: Type.Literal(type),
      createdAt: Timestamp,
      workspaceId: Uuid,
      data: Type.Ref(data, {
        description: `The ${kind.replace('_', ' ')} as GET with expand=all returns it`,
      }),
      ...(type.endsWith('.updated') ? { previousAttributes: PreviousAttributes } : {}),
    },
    { $id: variantId(type), description: `A ${type} event` },
  );
}

/** Each event type's schema, registered by the events plugin; Event is their union. */
export const EVENT_VARIANTS: TSchema[] = EVENT_TYPES.map(variant);

export const Event = Type.Unsafe<EventBody>({
  $id: 'Event',
  description:
    'A change, exactly as a webhook delivery carries it: one of the event types, told apart by `type`, ' +
    'whose `data` is the resource the event is about',
  oneOf: EVENT_TYPES.map((type) => Type.Ref(variantId(type))),
});

/** The static shape every variant shares (a generated client gets the union from the document). */
interface EventBody {
  id: string;
  type: EventName;
  createdAt: string;
  workspaceId: string;
  data: Record<string, unknown>;
  previousAttributes?: Record<string, unknown> | null;
}

export const EventFeedQuery = Type.Object({
  type: Type.Optional(
    Type.Array(EventType, {
      maxItems: EVENT_TYPES.length,
      description: 'Only these types (repeat, or comma-separate)',
    }),
  ),
  entityId: Type.Optional(
    Type.String({
      ...Uuid,
      description:
        "Only the events of this resource (a task's, a project's, …, by its UUID), for its history; " +
        'positions and cursors are the same as without it',
    }),
  ),
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'Start after this event (its id), at this position (a nextCursor), or `latest`: an empty page ' +
        'whose nextCursor is the current end of the stream; not with cursor',
    }),
  ),
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type EventFeedQuery = Static<typeof EventFeedQuery>;

export const EventFeedPage = Type.Object({
  data: Type.Array(Type.Ref('Event')),
  nextCursor: Type.String({ description: 'Always given: keep it and ask again for what comes next' }),
  hasMore: Type.Boolean(),
});
