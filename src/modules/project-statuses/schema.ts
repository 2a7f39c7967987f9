import { type Static, Type } from 'typebox';
import { Color, Icon, Name, Timestamp, Uuid } from '../../http/schemas.ts';

export const ProjectStatus = Type.Object({
  id: Uuid,
  name: Type.String(),
  color: Type.String(),
  icon: Type.String(),
  position: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProjectStatus = Static<typeof ProjectStatus>;

export const ProjectStatusUpsertBody = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Type.Optional(Name),
    color: Type.Optional(Color),
    icon: Type.Optional(Icon),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type ProjectStatusUpsertBody = Static<typeof ProjectStatusUpsertBody>;
