import { type Static, Type } from 'typebox';
import { DateInput, DescriptionInput, DescriptionOut, Person } from '../../http/common.ts';
import {
  CursorQuery,
  Expanded,
  Flag,
  LimitQuery,
  MatchModeQuery,
  Name,
  Nullable,
  NullableTimestamp,
  PresentationQuery,
  Stage,
  Timestamp,
  UpdatedSinceQuery,
  UpsertBody,
  UpsertId,
  Uuid,
  Visibility,
} from '../../http/schemas.ts';

/**
 * `team` and `area` both ask for the task's group, shown under the name of its kind: `team` for a task
 * of a team, `area` for a task made from a template (the area variant).
 */
export const TASK_EXPANSIONS = ['status', 'team', 'area', 'project', 'assignee'] as const;
export type TaskExpansion = (typeof TASK_EXPANSIONS)[number];

/** POST /v1/tasks and each entry of POST /v1/tasks/batch. */
export const TaskUpsertBody = UpsertBody(
  {
    name: Name,
    teamId: Type.Unsafe<string>({
      ...Uuid,
      description: 'Required on create unless projectId names a project',
    }),
    statusId: Uuid,
    description: Nullable(DescriptionInput),
    dueDate: Nullable(DateInput),
    priority: Type.Boolean(),
    assignedToId: Nullable(Uuid),
    projectId: Nullable(Uuid),
    visibility: Visibility,
    labelIds: Type.Array(Uuid, { maxItems: 50 }),
  },
  ['name'],
  {
    id: UpsertId,
    examples: [
      {
        name: 'Write the release notes',
        teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10',
        description: '**Draft** first',
        dueDate: '2026-12-01T09:00:00.000Z',
      },
      { id: '42', priority: true },
    ],
  },
);
export type TaskUpsertBody = Static<typeof TaskUpsertBody>;

/**
 * Entries are checked one by one (a bad entry fails alone, batch.ts), so the envelope validates any
 * objects; the document shows them as TaskUpsertBody (app.ts documents `x-entries`).
 */
export const TaskBatchBody = Type.Object(
  {
    tasks: Type.Array(Type.Object({}, { additionalProperties: true }), {
      maxItems: 100,
      'x-entries': TaskUpsertBody,
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        tasks: [
          { name: 'Book the venue', teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', dueDate: 1795305600000 },
          { id: '42', priority: true },
        ],
      },
    ],
  },
);
export type TaskBatchBody = Static<typeof TaskBatchBody>;

const GroupRef = Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() });

export const Task = Type.Object(
  {
    id: Uuid,
    publicId: Type.Integer(),
    name: Type.String(),
    description: DescriptionOut,
    dueDate: NullableTimestamp,
    completedAt: NullableTimestamp,
    priority: Type.Boolean(),
    visibility: Visibility,
    createdById: Uuid,
    projectId: Nullable(Uuid),
    teamId: Type.Optional(Type.Unsafe<string>({ ...Uuid, description: 'A task of a team' })),
    areaId: Type.Optional(
      Type.Unsafe<string>({
        ...Uuid,
        description: 'In place of teamId: a task made from a template, in its area',
      }),
    ),
    statusId: Uuid,
    assignedToId: Nullable(Uuid),
    repeatId: Nullable(Uuid),
    labelIds: Type.Array(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: NullableTimestamp,
    status: Type.Optional(Type.Object({ id: Uuid, name: Type.String(), stage: Stage, color: Type.String() })),
    assignee: Type.Optional(Nullable(Person)),
    team: Type.Optional(GroupRef),
    area: Type.Optional(GroupRef),
    project: Type.Optional(Nullable(Type.Object({ id: Uuid, name: Type.String() }))),
  },
  { $id: 'Task' },
);
export type Task = Static<typeof Task>;
/** What expand=all always returns; team or area, by where the task lives, stays optional. */
export const TaskExpanded = Expanded('Task', ['status', 'assignee', 'project']);

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

export const TaskReadQuery = Type.Object(presentation, { additionalProperties: false });
export type TaskReadQuery = Static<typeof TaskReadQuery>;

const Text = Type.Optional(Type.String({ maxLength: 512 }));

export const TaskSearchQuery = Type.Object(
  {
    name: Text,
    description: Text,
    projectName: Text,
    teamName: Text,
    assigneeName: Text,
    matchMode: MatchModeQuery,
    teamId: Type.Optional(Uuid),
    projectId: Type.Optional(Uuid),
    statusId: Type.Optional(Type.Unsafe<string>({ ...Uuid, description: 'Extension: tasks in this status' })),
    assignedToId: Type.Optional(
      Type.Unsafe<string>({ ...Uuid, description: 'Extension: tasks assigned to this user' }),
    ),
    labelId: Type.Optional(Type.Unsafe<string>({ ...Uuid, description: 'Extension: tasks with this label' })),
    updatedSince: UpdatedSinceQuery,
    includeDeleted: Flag('Include soft-deleted tasks'),
    ...presentation,
    cursor: CursorQuery,
    limit: LimitQuery,
  },
  { additionalProperties: false },
);
export type TaskSearchQuery = Static<typeof TaskSearchQuery>;
