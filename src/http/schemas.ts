// TypeBox pieces every module shares: the problem+json shape, ids, timestamps, the paginated envelope,
// and the error responses a route declares next to its success response.
import { type TSchema, Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00.000Z'] });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Names: 1 to 512 characters once trimmed (decisions §4); services store them trimmed. */
export const Name = Type.String({
  maxLength: 1536,
  pattern: '^\\s*\\S([\\s\\S]{0,510}\\S)?\\s*$',
  description: '1 to 512 characters, not counting leading and trailing white space',
});
export const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', examples: ['#5e6ad2'] });
export const Icon = Type.String({ minLength: 1, maxLength: 64 });

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ enum: Object.keys(ERROR_STATUS) }),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    requestId: Type.String(),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

const problemRef = Type.Ref('Problem');

/**
 * The error responses a route can give, keyed by status: always 400, 401 and 500 (and 404 for routes
 * with a path id), plus what the route names.
 */
export function errors(...codes: ErrorCode[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of [
    'validation_failed',
    'unauthenticated',
    'rate_limited',
    'internal',
    ...codes,
  ] as const) {
    out[ERROR_STATUS[code]] = problemRef;
  }
  return out;
}

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    nextCursor: Nullable(Type.String()),
    hasMore: Type.Boolean(),
    total: Type.Optional(Type.Integer({ minimum: 0 })),
  });
}

export function List<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item) });
}

/** 204: no body (Fastify sends none whatever the handler passes). */
export const Empty = Type.Unsafe<void>({ type: 'null', description: 'No content' });

const FLAG_PATTERN = '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)?$';

/** A string flag: true/false/1/0 in any case; present but empty (`?includeDeleted`) is true. */
export function Flag(description: string) {
  return Type.Optional(Type.String({ pattern: FLAG_PATTERN, description }));
}

export const DEFAULT_LIMIT = 50;
export const LimitQuery = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIMIT, description: 'Page size, 1 to 100' }),
);
export const CursorQuery = Type.Optional(
  Type.String({ minLength: 1, maxLength: 2000, description: 'nextCursor of the previous page' }),
);
export const OffsetQuery = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Items to skip (not with cursor)' }),
);

/** `expand`, in all its forms: `expand=a,b`, `expand=a&expand=b`, `expand[]=a`. */
export function ExpandQuery(allowed: readonly string[]) {
  const description = `all (default), none, or a comma-separated list of: ${allowed.join(', ')}`;
  return {
    expand: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20, description })),
    'expand[]': Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20, description })),
  };
}

/** `expand` and `includeMarkdown`: how a resource with a description is presented. */
export function PresentationQuery(allowed: readonly string[]) {
  return { ...ExpandQuery(allowed), includeMarkdown: Flag('Add description.markdown') };
}
