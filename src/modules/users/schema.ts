import { type Static, Type } from 'typebox';
import {
  CursorQuery,
  LimitQuery,
  Name,
  NullableTimestamp,
  OffsetQuery,
  Timestamp,
  Uuid,
} from '../../http/schemas.ts';

export const Role = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('member'),
  Type.Literal('guest'),
]);

export const User = Type.Object({
  id: Uuid,
  name: Type.String(),
  email: Type.String(),
  role: Role,
  lastAccessedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type User = Static<typeof User>;

export const Me = Type.Object({
  ...User.properties,
  workspace: Type.Object({ id: Uuid, name: Type.String() }),
});
export type Me = Static<typeof Me>;

export const UserUpsertBody = Type.Object(
  {
    id: Type.Optional(Type.String({ format: 'uuid', description: 'Update this user' })),
    name: Type.Optional(Name),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    role: Type.Optional(Role),
  },
  { additionalProperties: false },
);
export type UserUpsertBody = Static<typeof UserUpsertBody>;

export const UserListQuery = Type.Object({ limit: LimitQuery, cursor: CursorQuery, offset: OffsetQuery });
export type UserListQuery = Static<typeof UserListQuery>;
