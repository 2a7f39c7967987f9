import { type Static, Type } from 'typebox';
import {
  CursorQuery,
  LimitQuery,
  Name,
  Nullable,
  NullableTimestamp,
  OffsetQuery,
  StringEnum,
  Timestamp,
  Uuid,
  WorkspaceRole,
} from '../../http/schemas.ts';

const STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationState = (typeof STATES)[number];
export const InvitationStateSchema = StringEnum(STATES, {
  description:
    'pending: its link works; accepted: the person joined; revoked: an owner revoked it, or a newer invitation of the same email replaced it; expired: 7 days passed',
});

/** An invitation as the owners' list shows it: never its link, which only the create answer holds. */
export const Invitation = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: WorkspaceRole,
  name: Nullable(Type.String({ description: 'The name the owner suggested; the person chooses theirs' })),
  state: InvitationStateSchema,
  invitedById: Uuid,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  acceptedAt: NullableTimestamp,
  acceptedUserId: Nullable(Uuid),
  revokedAt: NullableTimestamp,
});
export type Invitation = Static<typeof Invitation>;

export const InvitationCreated = Type.Object({
  ...Invitation.properties,
  url: Type.String({
    format: 'uri',
    description: 'The one-time link (<CAIRN_PUBLIC_URL>/invite/<token>), in this answer only',
  }),
  emailed: Type.Boolean({
    description:
      'Whether a mail with the link is being sent (CAIRN_SMTP_URL is set); otherwise pass the link on',
  }),
});
export type InvitationCreated = Static<typeof InvitationCreated>;

export const InvitationCreateBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    role: WorkspaceRole,
    name: Type.Optional(Name),
  },
  {
    additionalProperties: false,
    examples: [
      { email: 'ben@acme.test', role: 'member' },
      { email: 'ana@acme.test', role: 'admin', name: 'Ana' },
    ],
  },
);
export type InvitationCreateBody = Static<typeof InvitationCreateBody>;

export const InvitationListQuery = Type.Object(
  {
    limit: LimitQuery,
    cursor: CursorQuery,
    offset: OffsetQuery,
    state: Type.Optional(InvitationStateSchema),
  },
  { additionalProperties: false },
);
export type InvitationListQuery = Static<typeof InvitationListQuery>;
