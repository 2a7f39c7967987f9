import { type Static, Type } from 'typebox';
import {
  Color,
  CursorQuery,
  Expanded,
  ExpandQuery,
  Flag,
  Icon,
  LimitQuery,
  MatchModeQuery,
  MemberRole,
  Name,
  Nullable,
  NullableTimestamp,
  Privacy,
  Stage,
  Timestamp,
  UpsertBody,
  UpsertId,
  Uuid,
} from '../../http/schemas.ts';

export const GROUP_EXPANSIONS = ['members', 'taskStatuses', 'taskLabels'] as const;
export type GroupExpansion = (typeof GROUP_EXPANSIONS)[number];

const PublicIdInput = Type.String({ pattern: '^[A-Za-z0-9]{1,10}$', description: '1-10 of A-Z0-9' });

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
  name: Name,
  publicId: PublicIdInput,
  icon: Nullable(Icon),
  color: Nullable(Color),
  privacy: Privacy,
  members: Type.Array(MemberInput, { maxItems: 1000, description: 'Replaces the member list' }),
  taskStatuses: Type.Array(TaskStatusInput, {
    minItems: 1,
    maxItems: 50,
    description: 'Replaces the statuses',
  }),
  taskLabels: Type.Array(TaskLabelInput, { maxItems: 250, description: 'Replaces the labels' }),
};

export const TeamUpsertBody = UpsertBody(groupFields, ['name'], {
  id: UpsertId,
  examples: [
    { name: 'Engineering', publicId: 'ENG', privacy: 'workspace' },
    {
      id: 'ENG',
      privacy: 'private',
      members: [{ id: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', role: 'owner' }],
    },
  ],
});
export type TeamUpsertBody = Static<typeof TeamUpsertBody>;

export const AreaUpsertBody = UpsertBody(
  { ...groupFields, description: Nullable(Type.String({ maxLength: 200_000 })) },
  ['name'],
  {
    id: UpsertId,
    examples: [
      { name: 'Finance', publicId: 'FIN', description: 'Money in and out' },
      { id: 'FIN', description: null },
    ],
  },
);
export type AreaUpsertBody = Static<typeof AreaUpsertBody>;

const Member = Type.Object({
  id: Uuid,
  role: MemberRole,
  username: Type.String(),
  email: Type.String(),
  lastAccessedAt: NullableTimestamp,
  createdAt: Timestamp,
});
const TaskStatus = Type.Object({
  id: Uuid,
  name: Type.String(),
  stage: Stage,
  color: Type.String(),
});
const TaskLabel = Type.Object({ id: Uuid, color: Type.String(), name: Type.String() });

const groupResponse = {
  id: Uuid,
  name: Type.String(),
  publicId: Type.String(),
  icon: Nullable(Type.String()),
  color: Nullable(Type.String()),
  privacy: Privacy,
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
/** The expansions expand=all always returns (members, statuses, labels), for generated clients. */
export const TeamExpanded = Expanded('Team', ['members', 'taskStatuses', 'taskLabels']);
export const AreaExpanded = Expanded('Area', ['members', 'taskStatuses', 'taskLabels']);
export type Area = Static<typeof Area>;

export const GroupGetQuery = Type.Object(ExpandQuery(GROUP_EXPANSIONS));
export type GroupGetQuery = Static<typeof GroupGetQuery>;

export const TeamSearchQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 512 })),
  matchMode: MatchModeQuery,
  includeArchived: Flag('Include archived teams'),
  ...ExpandQuery(GROUP_EXPANSIONS),
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type TeamSearchQuery = Static<typeof TeamSearchQuery>;
