// Request validation with two Ajv instances: query strings and paths are text, so they are coerced
// ("50" → 50, one value → [value]); JSON bodies are typed, so they are not ("true" is not a boolean and
// 12 is not a name). Unknown body fields are rejected, never silently dropped.
import { isDeepStrictEqual } from 'node:util';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from './errors.ts';

// ajv-formats is CommonJS; under Node's ESM loader its default export is the module object.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

const base: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
};

function make(options: Options): Ajv {
  const ajv = new Ajv({ ...base, ...options });
  addFormats(ajv, ['uuid', 'date-time', 'date', 'uri', 'email']);
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

function describe(e: AjvError): string {
  if (e.keyword === 'enum') {
    const values = (e.params.allowedValues as unknown[]).filter((v) => v !== '');
    return `must be one of: ${values.join(', ')}`;
  }
  return e.message ?? 'is invalid';
}

/**
 * Ajv's errors as {path, message}, paths led by `prefix` (`/body`, `/query`, `/body/tasks/3`). `data`
 * is the validated value (to tell which branch of a create-or-update body was meant).
 */
export function fieldErrors(errors: AjvError[], prefix: string, data?: unknown): FieldError[] {
  const seen = new Set<string>();
  return ofAimedBranch(errors, data).flatMap((e) => {
    // A query array item (expand=a,b) is reported at the parameter: /query/expand, not /query/expand/1.
    const instance = prefix === '/query' ? e.instancePath.replace(/\/\d+$/, '') : e.instancePath;
    const path = `${prefix}${instance}`;
    const out = fieldError(e, path);
    const key = `${out.path} ${out.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [out];
  });
}

function fieldError(e: AjvError, path: string): FieldError {
  if (e.keyword === 'required')
    return { path: `${path}/${String(e.params.missingProperty)}`, message: 'is required' };
  if (e.keyword === 'additionalProperties') {
    const known = path.startsWith('/query') ? 'is not a known query parameter' : 'is not a known field';
    return { path: `${path}/${String(e.params.additionalProperty)}`, message: known };
  }
  return { path, message: describe(e) };
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
