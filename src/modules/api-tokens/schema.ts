import { type Static, Type } from 'typebox';
import { CursorQuery, LimitQuery, Name, OffsetQuery, Timestamp, Uuid } from '../../http/schemas.ts';

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

/** A token as its owner sees it later: never the secret (only its hash is stored, and that stays in). */
export const ApiToken = Type.Object({
  id: Uuid,
  name: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When a request last used it, to the minute (written at most once a minute); null if never',
  }),
});
export type ApiToken = Static<typeof ApiToken>;

export const ApiTokenListQuery = Type.Object(
  { limit: LimitQuery, cursor: CursorQuery, offset: OffsetQuery },
  { additionalProperties: false },
);
export type ApiTokenListQuery = Static<typeof ApiTokenListQuery>;
