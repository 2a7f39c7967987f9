import { type Static, Type } from 'typebox';
import { Name, Timestamp, Uuid } from '../../http/schemas.ts';

export const ApiTokenCreateBody = Type.Object(
  { name: Name, userId: Type.Optional(Uuid) },
  {
    additionalProperties: false,
    examples: [
      { name: 'CI deploys' },
      { name: "Ben's laptop", userId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10' },
    ],
  },
);
export type ApiTokenCreateBody = Static<typeof ApiTokenCreateBody>;

export const ApiTokenCreated = Type.Object({
  id: Uuid,
  name: Type.String(),
  userId: Uuid,
  token: Type.String({ description: 'Shown once; only its hash is stored' }),
  createdAt: Timestamp,
});
export type ApiTokenCreated = Static<typeof ApiTokenCreated>;
