import { type Static, Type } from 'typebox';
import { DateInput, DescriptionInput, DescriptionOut, Person } from '../../http/common.ts';
import {
  CursorQuery,
  Flag,
  LimitQuery,
  Name,
  Nullable,
  NullableTimestamp,
  PresentationQuery,
  Timestamp,
  Uuid,
} from '../../http/schemas.ts';

export const TASK_EXPANSIONS = ['status', 'team', 'project', 'assignee'] as const;
export type TaskExpansion = (typeof TASK_EXPANSIONS)[number];

const Visibility = Type.Union([Type.Literal('workspace'), Type.Literal('private')]);

/** POST /v1/tasks and each entry of POST /v1/tasks/batch. */
export const TaskUpsertBody = Type.Object(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'UUID or publicId: update it' }),
    ),
    name: Type.Optional(Name),
    teamId: Type.Optional(Uuid),
    statusId: Type.Optional(Uuid),
    description: Type.Optional(Nullable(DescriptionInput)),
    dueDate: Type.Optional(Nullable(DateInput)),
    priority: Type.Optional(Type.Boolean()),
    assignedToId: Type.Optional(Nullable(Uuid)),
    projectId: Type.Optional(Nullable(Uuid)),
    visibility: Type.Optional(Visibility),
    labelIds: Type.Optional(Type.Array(Uuid, { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type TaskUpsertBody = Static<typeof TaskUpsertBody>;

// Entries are checked one by one (a bad entry fails alone), so the envelope takes any objects.
export const TaskBatchBody = Type.Object(
  { tasks: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 100 }) },
  { additionalProperties: false },
);
export type TaskBatchBody = Static<typeof TaskBatchBody>;

export const Task = Type.Object(
  {
    id: Uuid,
    publicId: Type.Integer(),
    name: Type.String(),
    description: DescriptionOut,
    dueDate: NullableTimestamp,
    completedAt: NullableTimestamp,
    priority: Type.Boolean(),
    visibility: Type.String(),
    createdById: Uuid,
    projectId: Nullable(Uuid),
    teamId: Uuid,
    statusId: Uuid,
    assignedToId: Nullable(Uuid),
    repeatId: Nullable(Uuid),
    labelIds: Type.Array(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: NullableTimestamp,
    status: Type.Optional(
      Type.Object({ id: Uuid, name: Type.String(), stage: Type.String(), color: Type.String() }),
    ),
    assignee: Type.Optional(Nullable(Person)),
    team: Type.Optional(Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() })),
    project: Type.Optional(Nullable(Type.Object({ id: Uuid, name: Type.String() }))),
  },
  { $id: 'Task' },
);
export type Task = Static<typeof Task>;

export const TaskBatchResult = Type.Object({
  succeeded: Type.Array(Type.Ref('Task')),
  failed: Type.Array(
    Type.Object({
      task: Type.Unknown({ description: 'The entry as submitted' }),
      error: Type.String(),
      code: Type.String(),
      index: Type.Integer({ minimum: 0, description: 'Position of the entry in the submitted array' }),
    }),
  ),
});

const presentation = PresentationQuery(TASK_EXPANSIONS);

export const TaskReadQuery = Type.Object(presentation);
export type TaskReadQuery = Static<typeof TaskReadQuery>;

const Text = Type.Optional(Type.String({ maxLength: 512 }));

export const TaskSearchQuery = Type.Object({
  name: Text,
  description: Text,
  projectName: Text,
  teamName: Text,
  assigneeName: Text,
  matchMode: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('any')])),
  teamId: Type.Optional(Uuid),
  projectId: Type.Optional(Uuid),
  includeDeleted: Flag('Include soft-deleted tasks'),
  ...presentation,
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type TaskSearchQuery = Static<typeof TaskSearchQuery>;
