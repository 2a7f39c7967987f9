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
  { additionalProperties: false },
);
export type CollectionUpsertBody = Static<typeof CollectionUpsertBody>;

export const CollectionListQuery = Type.Object({
  limit: LimitQuery,
  cursor: CursorQuery,
  offset: OffsetQuery,
});
export type CollectionListQuery = Static<typeof CollectionListQuery>;
