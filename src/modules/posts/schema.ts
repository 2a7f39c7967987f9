import { type Static, Type } from 'typebox';
import { Person, RICH_TEXT } from '../../http/common.ts';
import {
  CursorQuery,
  Expanded,
  ExpandQuery,
  Flag,
  LimitQuery,
  Nullable,
  OffsetQuery,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../http/schemas.ts';

export const POST_EXPANSIONS = ['images', 'reactions', 'owner'] as const;
export type PostExpansion = (typeof POST_EXPANSIONS)[number];

const ENTITY_TYPES = ['task', 'project', 'document'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
const EntityTypeSchema = StringEnum(ENTITY_TYPES);

const Ref = Type.String({ minLength: 1, maxLength: 100, description: 'UUID or publicId' });
const Content = Type.String({
  maxLength: 200_000,
  pattern: '\\S',
  description: 'Markdown, sanitized as descriptions are; up to 200,000 characters',
  ...RICH_TEXT,
});

const PostImageInput = Type.Object(
  {
    url: Type.String({
      minLength: 8,
      maxLength: 2048,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      description: 'http(s) only',
    }),
    width: Type.Integer({ minimum: 1, maximum: 100_000 }),
    height: Type.Integer({ minimum: 1, maximum: 100_000 }),
  },
  { additionalProperties: false },
);

export const PostCreateBody = Type.Object(
  {
    entityType: EntityTypeSchema,
    entityId: Ref,
    content: Content,
    parentId: Type.Optional(Ref),
    images: Type.Optional(Type.Array(PostImageInput, { maxItems: 20 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        entityType: 'task',
        entityId: '42',
        content: 'Looks good, **ship it**',
        images: [{ url: 'https://cdn.example.com/shots/board.png', width: 1200, height: 800 }],
      },
    ],
  },
);
export type PostCreateBody = Static<typeof PostCreateBody>;

export const Reaction = Type.Object(
  { id: Uuid, postId: Uuid, userId: Uuid, reaction: Type.String() },
  { $id: 'Reaction' },
);
export type Reaction = Static<typeof Reaction>;

/**
 * A short name such as an emoji's (`thumbsup`, `+1`, `🎉`): no white space, up to 64 characters. Adding
 * one also takes only names a URL path carries unchanged (not `.` or `..`: service.ts isPathSafe).
 */
const ReactionName = Type.String({ minLength: 1, maxLength: 64, pattern: '^\\S+$' });

export const ReactionBody = Type.Object(
  { reaction: ReactionName },
  { additionalProperties: false, examples: [{ reaction: 'thumbsup' }] },
);
export type ReactionBody = Static<typeof ReactionBody>;

export const Post = Type.Object(
  {
    id: Uuid,
    publicId: Type.String(),
    content: Type.String(),
    action: Nullable(Type.String()),
    actionValue: Nullable(Type.String()),
    entityId: Uuid,
    entityType: EntityTypeSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    ownerId: Uuid,
    parentId: Nullable(Uuid),
    isResolved: Type.Boolean(),
    entityTitle: Type.String(),
    entityUrl: Type.String(),
    postUrl: Type.String(),
    images: Type.Optional(
      Type.Array(
        Type.Object({
          id: Uuid,
          key: Type.String(),
          url: Type.String(),
          postId: Uuid,
          width: Type.Integer(),
          height: Type.Integer(),
          aspectRatio: Type.Number(),
        }),
      ),
    ),
    reactions: Type.Optional(Type.Array(Type.Ref('Reaction'))),
    owner: Type.Optional(Nullable(Person)),
  },
  { $id: 'Post' },
);
/** What expand=all always returns. */
export const PostExpanded = Expanded('Post', ['images', 'reactions', 'owner']);
export type Post = Static<typeof Post>;

const expand = ExpandQuery(POST_EXPANSIONS);

export const PostReadQuery = Type.Object(expand);
export type PostReadQuery = Static<typeof PostReadQuery>;

const listing = {
  includeTotal: Flag('Add total (omit on later pages: it counts every post)'),
  ...expand,
  cursor: CursorQuery,
  offset: OffsetQuery,
  limit: LimitQuery,
};

export const PostListQuery = Type.Object({ entityType: EntityTypeSchema, entityId: Ref, ...listing });
export type PostListQuery = Static<typeof PostListQuery>;

export const PostRepliesQuery = Type.Object(listing);
export type PostRepliesQuery = Static<typeof PostRepliesQuery>;

export const ReactionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  reaction: ReactionName,
});
