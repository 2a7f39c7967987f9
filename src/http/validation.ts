// Request validation with two Ajv instances: query strings and paths are text, so they are coerced
// ("50" → 50, one value → [value]); JSON bodies are typed, so they are not ("true" is not a boolean and
// 12 is not a name). Unknown body fields are rejected, never silently dropped.
import { isDeepStrictEqual } from 'node:util';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from './errors.ts';
import { UUID } from './ids.ts';
import { Color, Name } from './schemas.ts';

// ajv-formats is CommonJS; under Node's ESM loader its default export is the module object.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

const base: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  // Errors carry the value and its schema, which the messages below are written from.
  verbose: true,
};

function make(options: Options): Ajv {
  const ajv = new Ajv({ ...base, ...options });
  addFormats(ajv, ['date-time', 'date', 'uri', 'email']);
  // Not ajv-formats' `uuid`, which also takes `urn:uuid:…`: PostgreSQL's uuid column refuses that form
  // with an error, where a plain text id simply found nothing. A UUID is its plain form only.
  ajv.addFormat('uuid', UUID);
  // `lowercase: true` (schemas.ts Uuid): ids are case-insensitive and stored lower-case, so a valid
  // string is lower-cased where it stands, once, for every body and query field that is a UUID.
  ajv.addKeyword({
    keyword: 'lowercase',
    type: 'string',
    modifying: true,
    schemaType: 'boolean',
    validate: (
      on: boolean,
      data: string,
      _schema?: unknown,
      where?: { parentData: object; parentDataProperty: string | number },
    ) => {
      if (on && where && data !== data.toLowerCase()) {
        (where.parentData as Record<string | number, string>)[where.parentDataProperty] = data.toLowerCase();
      }
      return true;
    },
  });
  return ajv;
}

// One pair of Ajv instances for the process: Fastify asks for a compiler for every encapsulation
// context (64 of them, one per plugin and route group), and building two Ajv instances with their
// formats for each cost 1.2 s of every start. Shared, every schema is also compiled once for all the
// contexts (and every app in a test process) that use it.
let shared: { strict: Ajv; coercing: Ajv } | null = null;

/**
 * Adds a context's shared schemas ($id'd) once. Fastify hands each app its own copies, so a schema
 * already known is compared by content; two different schemas under one $id would be a bug.
 */
function addExternal(ajv: Ajv, schema: object): void {
  const id = (schema as { $id?: string }).$id;
  // Looked up in the added schemas, not with getSchema, which would compile it (most of a start).
  const known = id === undefined ? undefined : ajv.schemas[id];
  if (!known) ajv.addSchema(schema);
  else if (!isDeepStrictEqual(known.schema, schema))
    throw new Error(`two different schemas share the $id ${id}`);
}

/**
 * Fastify's compilersFactory.buildValidator: called for every encapsulation context (including those
 * that add shared schemas), so no plugin can fall back to Fastify's coercing, field-stripping default.
 */
export function buildValidator(
  externalSchemas: Record<string, unknown> = {},
): FastifySchemaCompiler<unknown> {
  shared ??= { strict: make({ coerceTypes: false }), coercing: make({ coerceTypes: 'array' }) };
  const { strict, coercing } = shared;
  for (const schema of Object.values(externalSchemas)) {
    addExternal(strict, schema as object);
    addExternal(coercing, schema as object);
  }
  // Compiled on a route's first request, not at start (see serialization.ts): Fastify reads the
  // function's `errors` after a failed call, so the wrapper carries them over.
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      compiled ??= ajv.compile(schema as object);
      const valid = compiled(data) as boolean;
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

export interface AjvError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** With `verbose` (every instance here): the value that failed, and the schema that holds the keyword. */
  data?: unknown;
  parentSchema?: { description?: string };
}

/**
 * A create-or-update body is `anyOf: [create, update]` (schemas.ts UpsertBody): keep only the errors of
 * the branch the body aimed at (update when it has an id), so the client reads "name is required"
 * rather than both branches' complaints.
 */
function ofAimedBranch(errors: AjvError[], data: unknown): AjvError[] {
  if (!errors.some((e) => e.keyword === 'anyOf' && e.instancePath === '')) return errors;
  const aimed = typeof data === 'object' && data !== null && 'id' in data ? 1 : 0;
  const branch = errors.filter((e) => e.schemaPath?.startsWith(`#/anyOf/${aimed}/`));
  return branch.length > 0 ? branch : errors;
}

const isBlank = (data: unknown) => typeof data === 'string' && data.trim() === '';
const patternOf = (schema: object) => String((schema as { pattern?: string }).pattern);

/**
 * Every schema `pattern` in plain words: a client is told what to send, never the expression
 * (docs/api.md "Errors"). Keyed by the pattern's text; `src/http/validation-messages.test.ts` fails
 * on a pattern of the OpenAPI document missing here.
 */
export const PATTERN_MESSAGES: Record<string, (data: unknown) => string> = {
  [patternOf(Name)]: (data) =>
    isBlank(data)
      ? 'must not be empty'
      : 'must be 512 characters or fewer, not counting leading and trailing white space',
  [patternOf(Color)]: () => 'must be a color: # and six hexadecimal digits, such as #5e6ad2',
  // task-templates CalendarDate
  '^\\d{4}-\\d{2}-\\d{2}$': () => 'must be a calendar date, YYYY-MM-DD, such as 2026-12-01',
  // posts: content
  '\\S': () => 'must not be empty',
  // posts: an image's url
  '^[Hh][Tt][Tt][Pp][Ss]?://': () => 'must be an http or https URL',
  // posts: a reaction
  '^\\S+$': (data) => (isBlank(data) ? 'must not be empty' : 'must be one word, without white space'),
  // teams and areas: publicId
  '^[A-Za-z0-9]{1,10}$': () => 'must be 1 to 10 letters (A-Z) and digits',
  // the Idempotency-Key header (http/document.ts; idempotency.ts checks it with its own words)
  '^[\\x21-\\x7e]+$': () => 'must be visible ASCII characters, without spaces',
};

const DATE_TIME = 'must be a date-time with a time zone, such as 2026-11-24T09:00:00Z';

/** A query date-time whose `+01:00` arrived as ` 01:00`: a `+` in a query string is read as a space. */
const PLUS_AS_SPACE = /^(\d{4}-\d{2}-\d{2}T[\d:.]+) (\d{2}(:?\d{2})?)$/;

function formatMessage(e: AjvError, inQuery: boolean): string {
  const format = String(e.params.format);
  if (format === 'date-time') {
    const plus = inQuery && typeof e.data === 'string' ? PLUS_AS_SPACE.exec(e.data) : null;
    if (plus) {
      return `${DATE_TIME}: a + in a query string arrives as a space, so encode it as %2B (${plus[1]}%2B${plus[2]})`;
    }
    return DATE_TIME;
  }
  if (format === 'uuid') return 'must be a UUID';
  if (format === 'date') return 'must be a calendar date, YYYY-MM-DD';
  if (format === 'email') return 'must be an email address';
  if (format === 'uri') return 'must be an absolute URL';
  return `must be a valid ${format}`;
}

function describe(e: AjvError, inQuery: boolean): string {
  if (e.keyword === 'enum') {
    const values = (e.params.allowedValues as unknown[]).filter((v) => v !== '');
    return `must be one of: ${values.join(', ')}`;
  }
  if (e.keyword === 'pattern') {
    const plain = PATTERN_MESSAGES[String(e.params.pattern)];
    if (plain) return plain(e.data);
    const description = e.parentSchema?.description;
    return description ? `is not in the accepted form (${description})` : 'is not in the accepted form';
  }
  if (e.keyword === 'format') return formatMessage(e, inQuery);
  if (e.keyword === 'minLength') {
    const limit = Number(e.params.limit);
    return limit === 1 ? 'must not be empty' : `must be at least ${limit} characters`;
  }
  if (e.keyword === 'maxLength') return `must be at most ${Number(e.params.limit)} characters`;
  return e.message ?? 'is invalid';
}

/** The union's own complaints about a nullable value (`must be null`, `must match a schema in anyOf`). */
const isUnionNoise = (e: AjvError) =>
  e.keyword === 'anyOf' || (e.keyword === 'type' && e.params.type === 'null');

/**
 * An error another one at the same value says better: a length error where the value also failed a
 * pattern, whose words say the bound that matters (a name's 512 characters once trimmed, not the 1,536
 * of its white space); and a nullable field's union noise where its branch said what is wrong.
 */
function covered(e: AjvError, errors: AjvError[]): boolean {
  const at = errors.filter((o) => o !== e && o.instancePath === e.instancePath);
  if (e.keyword === 'maxLength' || e.keyword === 'minLength') return at.some((o) => o.keyword === 'pattern');
  return e.instancePath !== '' && isUnionNoise(e) && at.some((o) => !isUnionNoise(o));
}

/**
 * Ajv's errors as {path, message}, paths led by `prefix` (`/body`, `/query`, `/body/tasks/3`). `data`
 * is the validated value (to tell which branch of a create-or-update body was meant).
 */
export function fieldErrors(errors: AjvError[], prefix: string, data?: unknown): FieldError[] {
  const seen = new Set<string>();
  const aimed = ofAimedBranch(errors, data);
  return aimed.flatMap((e) => {
    if (covered(e, aimed)) return [];
    // A query array item (expand=a,b) is reported at the parameter: /query/expand, not /query/expand/1.
    const instance = prefix === '/query' ? e.instancePath.replace(/\/\d+$/, '') : e.instancePath;
    const path = `${prefix}${instance}`;
    const out = fieldError(e, path, prefix === '/query');
    const key = `${out.path} ${out.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [out];
  });
}

function fieldError(e: AjvError, path: string, inQuery: boolean): FieldError {
  if (e.keyword === 'required')
    return { path: `${path}/${String(e.params.missingProperty)}`, message: 'is required' };
  if (e.keyword === 'additionalProperties') {
    const known = path.startsWith('/query') ? 'is not a known query parameter' : 'is not a known field';
    return { path: `${path}/${String(e.params.additionalProperty)}`, message: known };
  }
  return { path, message: describe(e, inQuery) };
}

/**
 * The first string in a value (or object key) that a database could not store and read back as
 * given: one with a NUL character (PostgreSQL text refuses it) or an unpaired UTF-16 surrogate (no
 * UTF-8 for it). Every request's params, query and body pass through this rule (conventions.ts), and
 * each batch entry on its own.
 */
export function unstorableString(value: unknown, path: string): FieldError | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      return { path, message: 'contains a NUL character (U+0000), which cannot be stored' };
    if (!value.isWellFormed())
      return { path, message: 'contains an unpaired UTF-16 surrogate, which is not text' };
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const bad = unstorableString(key, at) ?? unstorableString(item, at);
    if (bad) return bad;
  }
  return null;
}

/** A strict (body) validator for one schema: the field errors of a value, or none. */
export function bodyValidator(schema: object, prefix: string): (value: unknown) => FieldError[] {
  let compiled: ValidateFunction | undefined;
  return (value) => {
    // On first use, like the routes' validators.
    compiled ??= make({ coerceTypes: false }).compile(schema);
    const validate = compiled;
    const unstorable = unstorableString(value, prefix);
    if (unstorable) return [unstorable];
    return validate(value) ? [] : fieldErrors((validate.errors ?? []) as AjvError[], prefix, value);
  };
}
