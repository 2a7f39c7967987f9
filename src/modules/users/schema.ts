import { type Static, Type } from 'typebox';
import {
  CursorQuery,
  LimitQuery,
  Name,
  NullableTimestamp,
  OffsetQuery,
  Timestamp,
  UpsertBody,
  Uuid,
  WorkspaceRole,
} from '../../http/schemas.ts';

const Role = WorkspaceRole;

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

export const UserUpsertBody = UpsertBody(
  { name: Name, email: Type.String({ format: 'email', maxLength: 320 }), role: Role },
  ['name', 'email'],
  {
    id: Type.Unsafe<string>({ ...Uuid, description: 'Update this user' }),
    examples: [
      { name: 'Ben', email: 'ben@acme.test', role: 'member' },
      { id: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', role: 'admin' },
    ],
  },
);
export type UserUpsertBody = Static<typeof UserUpsertBody>;

export const UserListQuery = Type.Object({ limit: LimitQuery, cursor: CursorQuery, offset: OffsetQuery });
export type UserListQuery = Static<typeof UserListQuery>;
