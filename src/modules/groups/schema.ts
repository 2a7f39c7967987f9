import { type Static, Type } from 'typebox';
import {
  Color,
  CursorQuery,
  ExpandQuery,
  Flag,
  Icon,
  LimitQuery,
  Name,
  Nullable,
  NullableTimestamp,
  Timestamp,
  Uuid,
} from '../../http/schemas.ts';

export const GROUP_EXPANSIONS = ['members', 'taskStatuses', 'taskLabels'] as const;
export type GroupExpansion = (typeof GROUP_EXPANSIONS)[number];

export const Stage = Type.Union([
  Type.Literal('backlog'),
  Type.Literal('unstarted'),
  Type.Literal('started'),
  Type.Literal('completed'),
  Type.Literal('canceled'),
]);
const MemberRole = Type.Union([Type.Literal('owner'), Type.Literal('member')]);
const Privacy = Type.Union([Type.Literal('workspace'), Type.Literal('private')]);

export const PublicIdInput = Type.String({ pattern: '^[A-Za-z0-9]{1,10}$', description: '1-10 of A-Z0-9' });

const MemberInput = Type.Object(
  { id: Uuid, role: Type.Optional(MemberRole) },
  { additionalProperties: false },
);
const TaskStatusInput = Type.Object(
  { id: Type.Optional(Uuid), name: Name, stage: Stage, color: Type.Optional(Color) },
  { additionalProperties: false },
);
const TaskLabelInput = Type.Object(
  { id: Type.Optional(Uuid), name: Name, color: Type.Optional(Color) },
  { additionalProperties: false },
);

const groupFields = {
  id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'UUID or publicId: update it' }),
  ),
  name: Type.Optional(Name),
  publicId: Type.Optional(PublicIdInput),
  icon: Type.Optional(Nullable(Icon)),
  color: Type.Optional(Nullable(Color)),
  privacy: Type.Optional(Privacy),
  members: Type.Optional(
    Type.Array(MemberInput, { maxItems: 1000, description: 'Replaces the member list' }),
  ),
  taskStatuses: Type.Optional(
    Type.Array(TaskStatusInput, { minItems: 1, maxItems: 50, description: 'Replaces the statuses' }),
  ),
  taskLabels: Type.Optional(
    Type.Array(TaskLabelInput, { maxItems: 250, description: 'Replaces the labels' }),
  ),
};

export const TeamUpsertBody = Type.Object(groupFields, { additionalProperties: false });
export type TeamUpsertBody = Static<typeof TeamUpsertBody>;

export const AreaUpsertBody = Type.Object(
  { ...groupFields, description: Type.Optional(Nullable(Type.String({ maxLength: 200_000 }))) },
  { additionalProperties: false },
);
export type AreaUpsertBody = Static<typeof AreaUpsertBody>;

export const Member = Type.Object({
  id: Uuid,
  role: Type.String(),
  username: Type.String(),
  email: Type.String(),
  lastAccessedAt: NullableTimestamp,
  createdAt: Timestamp,
});
export const TaskStatus = Type.Object({
  id: Uuid,
  name: Type.String(),
  stage: Type.String(),
  color: Type.String(),
});
export const TaskLabel = Type.Object({ id: Uuid, color: Type.String(), name: Type.String() });

const groupResponse = {
  id: Uuid,
  name: Type.String(),
  publicId: Type.String(),
  icon: Nullable(Type.String()),
  color: Nullable(Type.String()),
  privacy: Type.String(),
  archivedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  members: Type.Optional(Type.Array(Member)),
  taskStatuses: Type.Optional(Type.Array(TaskStatus)),
  taskLabels: Type.Optional(Type.Array(TaskLabel)),
};

export const Team = Type.Object(groupResponse, { $id: 'Team' });
export type Team = Static<typeof Team>;
export const Area = Type.Object({ ...groupResponse, description: Nullable(Type.String()) }, { $id: 'Area' });
export type Area = Static<typeof Area>;

export const GroupGetQuery = Type.Object(ExpandQuery(GROUP_EXPANSIONS));
export type GroupGetQuery = Static<typeof GroupGetQuery>;

export const TeamSearchQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 512 })),
  matchMode: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('any')])),
  includeArchived: Flag('Include archived teams'),
  ...ExpandQuery(GROUP_EXPANSIONS),
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type TeamSearchQuery = Static<typeof TeamSearchQuery>;
