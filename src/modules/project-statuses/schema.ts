import { type Static, Type } from 'typebox';
import { Color, Icon, Name, Timestamp, UpsertBody, Uuid } from '../../http/schemas.ts';

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

export const ProjectStatusUpsertBody = UpsertBody(
  { name: Name, color: Color, icon: Icon, position: Type.Integer({ minimum: 0, maximum: 10_000 }) },
  ['name'],
  {
    id: Uuid,
    examples: [
      { name: 'At risk', color: '#eb5757', icon: 'warning' },
      { id: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10', position: 0 },
    ],
  },
);
export type ProjectStatusUpsertBody = Static<typeof ProjectStatusUpsertBody>;
