import { type Static, Type } from 'typebox';
import { CursorQuery, LimitQuery, Name, OffsetQuery, Timestamp, Uuid } from '../../http/schemas.ts';

export const Collection = Type.Object({
  id: Uuid,
  name: Type.String(),
  createdById: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Collection = Static<typeof Collection>;

export const CollectionUpsertBody = Type.Object(
  { id: Type.Optional(Uuid), name: Name },
  {
    additionalProperties: false,
    examples: [{ name: 'Q1 launches' }, { id: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', name: 'Q2 launches' }],
  },
);
export type CollectionUpsertBody = Static<typeof CollectionUpsertBody>;

export const CollectionListQuery = Type.Object({
  limit: LimitQuery,
  cursor: CursorQuery,
  offset: OffsetQuery,
});
export type CollectionListQuery = Static<typeof CollectionListQuery>;
