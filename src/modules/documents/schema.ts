import { type Static, Type } from 'typebox';
import { DescriptionInput, DescriptionOut } from '../../http/common.ts';
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
  Timestamp,
  UpdatedSinceQuery,
  UpsertBody,
  UpsertId,
  Uuid,
  Visibility,
} from '../../http/schemas.ts';

export const DOCUMENT_EXPANSIONS = ['team'] as const;
export type DocumentExpansion = (typeof DOCUMENT_EXPANSIONS)[number];

export const DocumentUpsertBody = UpsertBody(
  {
    name: Name,
    teamId: Uuid,
    description: Nullable(DescriptionInput),
    visibility: Visibility,
  },
  ['name', 'teamId'],
  {
    id: UpsertId,
    examples: [
      { name: 'Onboarding guide', teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', description: '# Welcome' },
      { id: '12', visibility: 'private' },
    ],
  },
);
export type DocumentUpsertBody = Static<typeof DocumentUpsertBody>;

export const Document = Type.Object(
  {
    id: Uuid,
    publicId: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    visibility: Type.String({ enum: ['workspace', 'private'] }),
    createdById: Uuid,
    lastEditedById: Nullable(Uuid),
    lastEditedAt: NullableTimestamp,
    workspaceId: Uuid,
    teamId: Uuid,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: NullableTimestamp,
    deletedById: Nullable(Uuid),
    description: DescriptionOut,
    team: Type.Optional(Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() })),
  },
  { $id: 'Document' },
);
/** What expand=all always returns. */
export const DocumentExpanded = Expanded('Document', ['team']);
export type Document = Static<typeof Document>;

const presentation = PresentationQuery(DOCUMENT_EXPANSIONS);

export const DocumentReadQuery = Type.Object(presentation);
export type DocumentReadQuery = Static<typeof DocumentReadQuery>;

const Text = Type.Optional(Type.String({ maxLength: 512 }));

export const DocumentSearchQuery = Type.Object({
  name: Text,
  description: Text,
  teamName: Text,
  matchMode: MatchModeQuery,
  teamId: Type.Optional(Uuid),
  updatedSince: UpdatedSinceQuery,
  includeDeleted: Flag('Include soft-deleted documents'),
  ...presentation,
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type DocumentSearchQuery = Static<typeof DocumentSearchQuery>;
