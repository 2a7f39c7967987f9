import { type Static, Type } from 'typebox';
import { Name, Timestamp, Uuid } from '../../http/schemas.ts';
import { User } from '../users/schema.ts';

const Token = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'The token of the link: its last path segment',
});
const NewPassword = Type.String({
  maxLength: 4096,
  description: '8 to 1,024 characters, not one of the 100,000 most common passwords',
});

export const AcceptInvitationBody = Type.Object(
  { token: Token, name: Name, password: NewPassword },
  {
    additionalProperties: false,
    examples: [{ token: 'Xq3…', name: 'Ben Ito', password: 'a long passphrase' }],
  },
);
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

/** The signed-in person and their workspace, as GET /v1/me shows them; the session is in the cookie. */
export const SignedIn = Type.Object(
  { user: User, workspace: Type.Object({ id: Uuid, name: Type.String() }) },
  {
    headers: {
      'Set-Cookie': {
        type: 'string',
        description:
          'The session: cairn_session=<secret>; HttpOnly; SameSite=Lax; Path=/; Expires (Secure over https)',
      },
    },
  },
);

export const PasswordResetRequestBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    workspaceId: Type.Optional(Uuid),
  },
  { additionalProperties: false, examples: [{ email: 'ben@acme.test' }] },
);
export type PasswordResetRequestBody = Static<typeof PasswordResetRequestBody>;

export const PasswordResetRequested = Type.Object({
  message: Type.String({ description: 'The same words whether or not the email belongs to anyone' }),
});

export const ResetPasswordBody = Type.Object(
  { token: Token, password: NewPassword },
  { additionalProperties: false, examples: [{ token: 'Xq3…', password: 'a new long passphrase' }] },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const PasswordLinkCreated = Type.Object({
  url: Type.String({
    format: 'uri',
    description: 'The one-time link (<CAIRN_PUBLIC_URL>/reset-password/<token>), in this answer only',
  }),
  expiresAt: Timestamp,
  emailed: Type.Boolean({
    description: 'Whether a mail with the link is being sent to the person (CAIRN_SMTP_URL is set)',
  }),
});
