import { type Static, Type } from 'typebox';
import { List, Timestamp, Uuid } from '../../http/schemas.ts';
import { User } from '../users/schema.ts';
import { MAX_LENGTH } from './passwords.ts';

/** A password as a request sends it; its rules for a new one are passwordProblem's (400 at that field). */
const Password = Type.String({ minLength: 1, maxLength: MAX_LENGTH });

export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Password,
    workspaceId: Type.Optional(
      Type.Unsafe<string>({
        ...Uuid,
        description:
          'The workspace to sign in to. Without it, the password chooses: of the workspaces where this email has that password, the one used most recently',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ email: 'olive@acme.test', password: 'correct horse battery staple' }],
  },
);
export type SignInBody = Static<typeof SignInBody>;

/** The answer of a sign-in (and of every route that signs someone in): who, and in which workspace. */
export const SignedIn = Type.Object({
  user: User,
  workspace: Type.Object({ id: Uuid, name: Type.String() }),
});
export type SignedIn = Static<typeof SignedIn>;

export const Session = Type.Object({
  id: Uuid,
  current: Type.Boolean({
    description: 'This request was signed in with this session (always false with an API token)',
  }),
  createdAt: Timestamp,
  lastUsedAt: Type.Unsafe<string>({
    ...Timestamp,
    description: 'To the day: a use is written at most once a day',
  }),
  expiresAt: Type.Unsafe<string>({
    ...Timestamp,
    description: '30 days after the last written use; the session also ends after 14 days unused',
  }),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
});
export type Session = Static<typeof Session>;

export const SessionList = List(Session);

export const PasswordChangeBody = Type.Object(
  { currentPassword: Password, newPassword: Password },
  {
    additionalProperties: false,
    examples: [{ currentPassword: 'correct horse battery staple', newPassword: 'a new, longer passphrase' }],
  },
);
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;
