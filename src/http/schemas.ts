// TypeBox pieces every module shares: the problem+json shape, ids, timestamps, the paginated envelope,
// and the error responses a route declares next to its success response.
import { type Static, type TProperties, type TSchema, Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/** A UUID; validation lower-cases it (validation.ts `lowercase`), so services compare it as stored. */
export const Uuid = Type.String({ format: 'uuid', lowercase: true });
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00.000Z'] });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Names: 1 to 512 characters once trimmed (docs/decisions.md §4); services store them trimmed. */
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

/** What an error response of this status is: the codes it can carry. */
export function problemDescription(status: number): string {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
  return `Problem details; code ${codes.join(' or ')}`;
}

/**
 * One error response: problem+json (docs/decisions.md §6), whatever the status. In the document,
 * http/document.ts makes it a reference to the one response of its status in components.responses.
 */
export function problemResponse(status: number): TSchema {
  return {
    description: problemDescription(status),
    content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
  } as unknown as TSchema;
}

/**
 * The error responses a route can give, keyed by status: always 400, 401, 429, 500 and 503, plus what the
 * route names. (405, 413 and 415 for routes with a body, and 412 for writes, are added to every /v1 route's
 * document by http/conventions.ts, and 304, 409 and 422 by http/document.ts from the operation's shape;
 * the answers themselves come from http/error-handler.ts.)
 */
export function errors(...codes: ErrorCode[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of [
    'validation_failed',
    'unauthenticated',
    'rate_limited',
    'internal',
    'unavailable',
    ...codes,
  ] as const) {
    out[ERROR_STATUS[code]] = problemResponse(ERROR_STATUS[code]);
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
    totalRelation: Type.Optional(
      Type.Union([Type.Literal('eq'), Type.Literal('gte')], {
        description:
          'With total: `eq` when it is the number of matches, `gte` when a text search stopped counting at 1,000 (total is then 1000).',
      }),
    ),
  });
}

export function List<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item) });
}

/** 204: no body (Fastify sends none whatever the handler passes). */
export const Empty = Type.Unsafe<void>({ type: 'null', description: 'No content' });

/** A string with a fixed set of values: `{type: string, enum}` in the document, a union of literals in code. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

const VISIBILITIES = ['workspace', 'private'] as const;
export const Visibility = StringEnum(VISIBILITIES);
const PRIVACIES = ['workspace', 'private'] as const;
export const Privacy = StringEnum(PRIVACIES);
const STAGES = ['backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;
export const Stage = StringEnum(STAGES);
const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'guest'] as const;
export const WorkspaceRole = StringEnum(WORKSPACE_ROLES);
const MEMBER_ROLES = ['owner', 'member'] as const;
export const MemberRole = StringEnum(MEMBER_ROLES);
export const MatchModeQuery = Type.Optional(
  StringEnum(['all', 'any'] as const, {
    description: 'all (default): every text field matches; any: at least one',
  }),
);

/**
 * The query flags (docs/decisions.md §4). Their values are read in any case (`TRUE`, `False`): the
 * preValidation hook (query.ts normalizeQuery) lowercases them before the schema's enum is checked.
 */
export const FLAG_NAMES = ['includeDeleted', 'includeArchived', 'includeTotal', 'includeMarkdown'] as const;
const FLAG_VALUES = ['true', 'false', '1', '0', ''] as const;

/** A string flag: true/false/1/0 in any case; present but empty (`?includeDeleted`) is true. */
export function Flag(description: string) {
  return Type.Optional(
    StringEnum(FLAG_VALUES, { description: `${description}. true, false, 1 or 0 (any case); bare is true` }),
  );
}

/** A sync filter (docs/decisions.md §7, an extension): changed at or after this instant. */
export const UpdatedSinceQuery = Type.Optional(
  Type.String({
    format: 'date-time',
    description: 'Extension: only those changed at or after this instant (ISO 8601 date-time)',
    examples: ['2026-11-24T09:00:00Z'],
  }),
);

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

/**
 * `expand`, in all its forms: `expand=a,b`, `expand=a&expand=b`, `expand[]=a`. The preValidation
 * hook (query.ts normalizeQuery) splits and merges them into one `expand` array before validation.
 */
export function ExpandQuery(allowed: readonly string[]) {
  const description = `all (default), none, or field names (comma-separated or repeated): ${allowed.join(', ')}`;
  return {
    expand: Type.Optional(Type.Array(StringEnum(['all', 'none', ...allowed]), { maxItems: 20, description })),
  };
}

/**
 * `<Name>Expanded`, for the document only: the resource as an answer with the default `expand=all`
 * carries it, the expansions it always has there required. No operation answers with it, because a
 * response schema cannot depend on the query: with `expand=none` or a list of names the other
 * expansions are absent, so the resource's own schema has them optional. A generated client reads an
 * answer of the default expand as this type (openapi-typescript makes it
 * `WithRequired<Name, ...>`). Expansions that depend on the resource (a task's team or area) stay
 * optional here too.
 */
export function Expanded(name: string, always: readonly string[]) {
  return Type.Unsafe({
    $id: `${name}Expanded`,
    allOf: [Type.Ref(name)],
    required: [...always],
    description: `${name} as an answer with the default expand=all carries it: ${always.join(', ')} always present. No operation is typed with it, since another expand leaves these out; read a default answer as this type.`,
  });
}

/** `expand` and `includeMarkdown`: how a resource with a description is presented. */
export function PresentationQuery(allowed: readonly string[]) {
  return { ...ExpandQuery(allowed), includeMarkdown: Flag('Add description.markdown') };
}

/**
 * A create-or-update body (docs/decisions.md §4). Without `id` it creates, and the fields named in `required`
 * must be there; with `id` it updates, and every field is optional. In the document it is
 * `anyOf: [create, update]`, so a generated client knows what a create needs; a failed validation
 * reports the errors of the branch the body aimed at (validation.ts). Services see one flat type.
 */
export function UpsertBody<P extends TProperties>(
  fields: P,
  required: readonly (keyof P & string)[],
  options: { id: TSchema; examples: unknown[] },
) {
  const entries = Object.entries(fields);
  const create = Type.Object(
    Object.fromEntries(entries.map(([k, v]) => [k, required.includes(k) ? v : Type.Optional(v)])),
    { additionalProperties: false, title: 'create' },
  );
  const update = Type.Object(
    { id: options.id, ...Object.fromEntries(entries.map(([k, v]) => [k, Type.Optional(v)])) },
    { additionalProperties: false, title: 'update' },
  );
  return Type.Unsafe<{ id?: string } & { [K in keyof P]?: Static<P[K]> }>({
    anyOf: [create, update],
    examples: options.examples,
  });
}

/** The `id` of a create-or-update body: a UUID, or a publicId where the resource has one. */
export const UpsertId = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'UUID or publicId: update it',
});
