import { type Static, Type } from 'typebox';
import { DateInput, DescriptionInput, DescriptionOut, Person } from '../../http/common.ts';
import {
  Color,
  CursorQuery,
  Flag,
  Icon,
  LimitQuery,
  Name,
  Nullable,
  NullableTimestamp,
  OffsetQuery,
  PresentationQuery,
  Timestamp,
  Uuid,
} from '../../http/schemas.ts';

export const PROJECT_EXPANSIONS = ['owner', 'status', 'teams', 'collection'] as const;
export type ProjectExpansion = (typeof PROJECT_EXPANSIONS)[number];

export const ProjectUpsertBody = Type.Object(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'UUID or publicId: update it' }),
    ),
    name: Type.Optional(Name),
    teamId: Type.Optional(Uuid),
    teamIds: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 50 })),
    ownerId: Type.Optional(Nullable(Uuid)),
    statusId: Type.Optional(Uuid),
    collectionId: Type.Optional(Nullable(Uuid)),
    icon: Type.Optional(Nullable(Icon)),
    color: Type.Optional(Nullable(Color)),
    startDate: Type.Optional(Nullable(DateInput)),
    dueDate: Type.Optional(Nullable(DateInput)),
    description: Type.Optional(Nullable(DescriptionInput)),
  },
  { additionalProperties: false },
);
export type ProjectUpsertBody = Static<typeof ProjectUpsertBody>;

export const ProjectStatusUpdateBody = Type.Object(
  { statusId: Uuid, content: Type.String({ minLength: 1, maxLength: 200_000 }) },
  { additionalProperties: false },
);
export type ProjectStatusUpdateBody = Static<typeof ProjectStatusUpdateBody>;

export const Project = Type.Object(
  {
    id: Uuid,
    publicId: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    icon: Nullable(Type.String()),
    color: Nullable(Type.String()),
    startDate: NullableTimestamp,
    dueDate: NullableTimestamp,
    ownerId: Nullable(Uuid),
    collectionId: Nullable(Uuid),
    workspaceId: Uuid,
    statusId: Uuid,
    archivedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    teamIds: Type.Array(Uuid),
    description: DescriptionOut,
    owner: Type.Optional(Nullable(Person)),
    status: Type.Optional(
      Type.Object({ id: Uuid, name: Type.String(), color: Type.String(), icon: Type.String() }),
    ),
    teams: Type.Optional(Type.Array(Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() }))),
    collection: Type.Optional(Nullable(Type.Object({ id: Uuid, name: Type.String() }))),
  },
  { $id: 'Project' },
);
export type Project = Static<typeof Project>;

const presentation = PresentationQuery(PROJECT_EXPANSIONS);

export const ProjectReadQuery = Type.Object(presentation);
export type ProjectReadQuery = Static<typeof ProjectReadQuery>;

export const ProjectListQuery = Type.Object({
  teamId: Type.Optional(Uuid),
  ownerId: Type.Optional(Uuid),
  statusId: Type.Optional(Uuid),
  collectionId: Type.Optional(Uuid),
  includeArchived: Flag('Include archived projects'),
  includeTotal: Flag('Add total (omit on later pages: it counts every match)'),
  ...presentation,
  cursor: CursorQuery,
  offset: OffsetQuery,
  limit: LimitQuery,
});
export type ProjectListQuery = Static<typeof ProjectListQuery>;

const Text = Type.Optional(Type.String({ maxLength: 512 }));

export const ProjectSearchQuery = Type.Object({
  name: Text,
  description: Text,
  ownerName: Text,
  teamName: Text,
  matchMode: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('any')])),
  teamId: Type.Optional(Uuid),
  includeArchived: Flag('Include archived projects'),
  ...presentation,
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type ProjectSearchQuery = Static<typeof ProjectSearchQuery>;
