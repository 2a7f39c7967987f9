// Request validation with two Ajv instances: query strings and paths are text, so they are coerced
// ("50" → 50, one value → [value]); JSON bodies are typed, so they are not ("true" is not a boolean and
// 12 is not a name). Unknown body fields are rejected, never silently dropped.
import { Ajv, type Options } from 'ajv';
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
  return ajv;
}

/**
 * Fastify's compilersFactory.buildValidator: called for every encapsulation context (including those
 * that add shared schemas), so no plugin can fall back to Fastify's coercing, field-stripping default.
 */
export function buildValidator(
  externalSchemas: Record<string, unknown> = {},
): FastifySchemaCompiler<unknown> {
  const strict = make({ coerceTypes: false });
  const coercing = make({ coerceTypes: 'array' });
  for (const schema of Object.values(externalSchemas)) {
    strict.addSchema(schema as object);
    coercing.addSchema(schema as object);
  }
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as object);
  };
}

export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Ajv's errors as {path, message}, paths led by `prefix` (`/body`, `/query`, `/body/tasks/3`). */
export function fieldErrors(errors: AjvError[], prefix: string): FieldError[] {
  return errors.map((e) => {
    const path = `${prefix}${e.instancePath}`;
    if (e.keyword === 'required')
      return { path: `${path}/${String(e.params.missingProperty)}`, message: e.message ?? 'is required' };
    if (e.keyword === 'additionalProperties') {
      return { path: `${path}/${String(e.params.additionalProperty)}`, message: 'is not a known field' };
    }
    return { path, message: e.message ?? 'is invalid' };
  });
}

/** A strict (body) validator for one schema: the field errors of a value, or none. */
export function bodyValidator(schema: object, prefix: string): (value: unknown) => FieldError[] {
  const validate = make({ coerceTypes: false }).compile(schema);
  return (value) => (validate(value) ? [] : fieldErrors((validate.errors ?? []) as AjvError[], prefix));
}
