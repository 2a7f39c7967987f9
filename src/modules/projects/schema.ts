import { type Static, Type } from 'typebox';
import { DateInput, DescriptionInput, DescriptionOut, Person, RICH_TEXT } from '../../http/common.ts';
import {
  Color,
  CursorQuery,
  Expanded,
  Flag,
  Icon,
  LimitQuery,
  MatchModeQuery,
  Name,
  Nullable,
  NullableTimestamp,
  OffsetQuery,
  PresentationQuery,
  Timestamp,
  UpdatedSinceQuery,
  UpsertBody,
  UpsertId,
  Uuid,
} from '../../http/schemas.ts';

/**
 * `teams` and `area` both ask for the project's groups, shown under the name of their kind: `teams` for
 * a project of teams, `area` for a project made from a template (the area variant, which has no
 * collection either).
 */
export const PROJECT_EXPANSIONS = ['owner', 'status', 'teams', 'collection', 'area'] as const;
export type ProjectExpansion = (typeof PROJECT_EXPANSIONS)[number];

export const ProjectUpsertBody = UpsertBody(
  {
    name: Name,
    teamId: Type.Unsafe<string>({ ...Uuid, description: 'Required on create unless teamIds is given' }),
    teamIds: Type.Array(Uuid, { minItems: 1, maxItems: 50, description: 'Every team of the project' }),
    ownerId: Nullable(Uuid),
    statusId: Uuid,
    collectionId: Nullable(Uuid),
    icon: Nullable(Icon),
    color: Nullable(Color),
    startDate: Nullable(DateInput),
    dueDate: Nullable(DateInput),
    description: Nullable(DescriptionInput),
  },
  ['name'],
  {
    id: UpsertId,
    examples: [
      { name: 'Launch', teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', dueDate: '2026-12-15' },
      { id: '7', description: 'Ship **v2** to everyone' },
    ],
  },
);
export type ProjectUpsertBody = Static<typeof ProjectUpsertBody>;

export const ProjectStatusUpdateBody = Type.Object(
  {
    statusId: Uuid,
    // As a post's content (posts/schema.ts): not blank; `\\S` reads "must not be empty" (http/validation.ts).
    // (No description: it would change the generated client, client/src/openapi.ts.)
    content: Type.String({ maxLength: 200_000, pattern: '\\S', ...RICH_TEXT }),
  },
  {
    additionalProperties: false,
    examples: [{ statusId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', content: 'On track for the **15th**' }],
  },
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
    collectionId: Type.Optional(Nullable(Uuid)),
    areaId: Type.Optional(
      Type.Unsafe<string>({
        ...Uuid,
        description: 'In place of teamIds and collectionId: a project made from a template',
      }),
    ),
    workspaceId: Uuid,
    statusId: Uuid,
    archivedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    teamIds: Type.Optional(Type.Array(Uuid)),
    description: DescriptionOut,
    owner: Type.Optional(Nullable(Person)),
    status: Type.Optional(
      Type.Object({ id: Uuid, name: Type.String(), color: Type.String(), icon: Type.String() }),
    ),
    teams: Type.Optional(Type.Array(Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() }))),
    collection: Type.Optional(Nullable(Type.Object({ id: Uuid, name: Type.String() }))),
    area: Type.Optional(Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() })),
  },
  { $id: 'Project' },
);
export type Project = Static<typeof Project>;
/** What expand=all always returns; teams and collection, or area, by the project's kind, stay optional. */
export const ProjectExpanded = Expanded('Project', ['owner', 'status']);

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
  matchMode: MatchModeQuery,
  teamId: Type.Optional(Uuid),
  updatedSince: UpdatedSinceQuery,
  includeArchived: Flag('Include archived projects'),
  ...presentation,
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type ProjectSearchQuery = Static<typeof ProjectSearchQuery>;
