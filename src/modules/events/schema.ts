import { type Static, Type } from 'typebox';
import { CursorQuery, LimitQuery, StringEnum, Timestamp, Uuid } from '../../http/schemas.ts';
import { EVENT_TYPES } from '../registry.ts';

const EventType = StringEnum(EVENT_TYPES);

export const Event = Type.Object(
  {
    id: Uuid,
    type: EventType,
    createdAt: Timestamp,
    workspaceId: Uuid,
    data: Type.Object({}, { additionalProperties: true, description: 'The resource as GET with expand=all' }),
  },
  { $id: 'Event', description: 'A change, exactly as a webhook delivery carries it' },
);
export type Event = Static<typeof Event>;

export const EventFeedQuery = Type.Object({
  type: Type.Optional(
    Type.Array(EventType, {
      maxItems: EVENT_TYPES.length,
      description: 'Only these types (repeat, or comma-separate)',
    }),
  ),
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'Start after this event (its id) or at this position (a nextCursor); not with cursor',
    }),
  ),
  cursor: CursorQuery,
  limit: LimitQuery,
});
export type EventFeedQuery = Static<typeof EventFeedQuery>;

export const EventFeedPage = Type.Object({
  data: Type.Array(Type.Ref('Event')),
  nextCursor: Type.String({ description: 'Always given: keep it and ask again for what comes next' }),
  hasMore: Type.Boolean(),
});
