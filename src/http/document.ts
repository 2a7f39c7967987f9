// The conventions the OpenAPI document states for every operation, derived from what the operation is
// (its method, its statuses, the shape of its answer) so that a new route gets them without saying so:
//  - statuses: 304 on a GET whose answer carries an ETag; 409 and 422 on every POST (an
//    Idempotency-Key still running or reused, a constraint lost to a concurrent write) and 409 on every
//    DELETE (the constraint); 403 on every POST and DELETE (signed in with the session cookie, from a
//    page of another origin: http/auth.ts); 412 comes from conventions.ts (every write but the batch);
//  - request headers: If-None-Match where the GET's answer carries an ETag (not on lists),
//    Idempotency-Key on every POST, If-Match only where the write changes an existing resource (it
//    answers 200 or 204): a create (201 alone) or a queued retry (202) compares nothing, so If-Match
//    there is always 412 (preconditions.ts settleIfMatch) and is not offered;
//  - response headers: X-Request-Id on every answer, RateLimit-* on every /v1 answer, ETag where the
//    answer is a single resource (http/etag.ts), Location on a 201 whose resource can be read by id,
//    Idempotent-Replayed on a POST's answers, Retry-After on 429 and 503, WWW-Authenticate on 401,
//    Allow on 405, and Set-Cookie on every /v1 success (a session renewed by the request).
// Error answers, headers and parameters are components referenced by every operation: the document
// says each once. src/test/declared.ts checks every answer the test suite produces against it.
import { problemDescription } from './schemas.ts';

// biome-ignore lint/suspicious/noExplicitAny: a parsed OpenAPI document, walked by hand.
type Json = any;

const text = { type: 'string' };
const seconds = { type: 'integer', minimum: 0 };

const HEADERS: Record<string, { description: string; schema: object }> = {
  'X-Request-Id': {
    description:
      "This request's id: the X-Request-Id the request sent (1 to 128 of A-Z a-z 0-9 . _ : -), or a new UUID. An error's requestId is the same",
    schema: text,
  },
  'RateLimit-Limit': {
    description:
      'Requests this API token may make a minute (text searches count against a lower budget of their own; requests without a valid token, against the address)',
    schema: seconds,
  },
  'RateLimit-Remaining': { description: 'Requests left in this minute', schema: seconds },
  'RateLimit-Reset': {
    description: 'Seconds until the minute ends and the budget is full again',
    schema: seconds,
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: seconds },
  ETag: {
    description:
      'The version of the resource in this answer: send it in If-None-Match to read it again (304 while unchanged), or in If-Match to change it only if nobody else did (412 otherwise)',
    schema: text,
  },
  Location: {
    description: 'The URL that reads (GET) the resource this request made',
    schema: { type: 'string', format: 'uri' },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the kept answer of an earlier POST with the same Idempotency-Key, token and body: nothing was done again',
    schema: { type: 'string', enum: ['true'] },
  },
  'WWW-Authenticate': {
    description:
      'The Bearer challenge, with error="invalid_token" or "invalid_request" when a token was sent',
    schema: text,
  },
  Allow: { description: 'The methods this path takes', schema: text },
  'Set-Cookie': {
    description:
      'The session cookie (`cairn_session`): set by a sign-in, cleared by a sign-out, and sent again with its new Expires when a request signed in with it renews the session (at most once a day)',
    schema: text,
  },
};

const PARAMETERS: Record<string, Json> = {
  IfNoneMatch: {
    name: 'If-None-Match',
    description:
      'An ETag from an earlier answer: 304 Not Modified, without a body, while the same answer would be sent',
    schema: { type: 'string', maxLength: 1024 },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    description:
      'Any unique string: a retry with the same key, token and body within 24 hours gets the first answer (Idempotent-Replayed: true) and nothing is done again; the key with another request is 422, while its first request runs 409',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  },
  IfMatch: {
    name: 'If-Match',
    description:
      'An ETag of the resource this request changes (for a reaction, of its post): 412 when it changed since, and nothing is changed. `*`: any version',
    schema: { type: 'string', maxLength: 1024 },
  },
};

const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** What every answer of the operation carries, and what answers of this status add. */
function headersOf(api: boolean, status: number, method: string): string[] {
  const names = ['X-Request-Id', ...(api ? RATE_LIMIT : [])];
  if (status === 429 || status === 503) names.push('Retry-After');
  if (status === 401) names.push('WWW-Authenticate');
  if (status === 405) names.push('Allow');
  // A kept answer is any but a 5xx (http/idempotency.ts); the error components serve every method.
  if (api && status < 500 && (method === 'post' || status >= 400)) names.push('Idempotent-Replayed');
  if (api && status >= 200 && status < 300) names.push('Set-Cookie');
  return names;
}

function refs(kind: string, names: string[]): Record<string, Json> {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/${kind}/${n}` }]));
}

/**
 * @fastify/swagger's per-route transform: what only the route knows goes to the operation as `x-`
 * keys, read and removed by documentObject. A batch envelope validates its entries as plain objects
 * (each entry is checked on its own, so one bad entry fails alone); the document shows the entry
 * schema named by `x-entries`.
 */
export function documentRoute({ schema, url, route }: { schema: unknown; url: string; route?: Json }) {
  const copy = structuredClone(schema) as Record<string, unknown> | undefined;
  const body = copy?.body as { properties?: Record<string, Record<string, unknown>> } | undefined;
  for (const property of Object.values(body?.properties ?? {})) {
    if (property['x-entries']) {
      property.items = property['x-entries'];
      delete property['x-entries'];
    }
  }
  if (copy && route?.config?.optionalBody) copy['x-optional-body'] = true;
  if (copy && route?.config?.location) copy['x-location'] = `${route.config.location}/{id}`;
  return { schema: copy as never, url };
}

/** The whole document: the conventions above, without validation-only keywords (`lowercase`). */
export function documentObject(document: object) {
  const { openapiObject } = document as { openapiObject: unknown };
  const doc = withoutKeyword(openapiObject, 'lowercase') as Json;
  const problems: Record<string, Json> = {};
  for (const [path, operations] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const [method, operation] of Object.entries(operations) as [string, Json][]) {
      describe(doc, path, method, operation, problems);
    }
  }
  doc.components.headers = Object.fromEntries(
    Object.entries(HEADERS).map(([name, h]) => [name, { ...h, required: false }]),
  );
  doc.components.parameters = Object.fromEntries(
    Object.entries(PARAMETERS).map(([id, p]) => [id, { in: 'header', required: false, ...p }]),
  );
  doc.components.responses = Object.fromEntries(
    Object.entries(problems).sort(([a], [b]) => a.localeCompare(b)),
  );
  return doc as never;
}

function describe(doc: Json, path: string, method: string, op: Json, problems: Record<string, Json>): void {
  const api = path.startsWith('/v1/');
  const responses = op.responses as Record<string, Json>;
  const tagged = (status: string) => carriesTag(doc, responses[status]);
  const parameters: string[] = [];
  if (api) {
    if (method === 'get' && tagged('200')) {
      responses['304'] = { description: 'Not Modified: the ETag given in If-None-Match is current; no body' };
      parameters.push('IfNoneMatch');
    }
    if (method === 'post') parameters.push('IdempotencyKey');
    if (method === 'post' || method === 'delete') responses['409'] ??= { problem: true };
    // A write with the session cookie from another origin's page (http/auth.ts).
    if (method === 'post' || method === 'delete') responses['403'] ??= { problem: true };
    if (method === 'post') responses['422'] ??= { problem: true };
    if (responses['412'] && (responses['200'] || responses['204'])) parameters.push('IfMatch');
  }
  const location = op['x-location'] ?? (doc.paths[`${path}/{id}`]?.get ? `${path}/{id}` : undefined);
  const out: Record<string, Json> = {};
  for (const status of Object.keys(responses).sort()) {
    const code = Number(status);
    const names = headersOf(api, code, method);
    if (code >= 400 && api) {
      const id = `Problem${status}`;
      problems[id] ??= {
        description: problemDescription(code),
        headers: refs('headers', names),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
      out[status] = { $ref: `#/components/responses/${id}` };
      continue;
    }
    if (tagged(status) || code === 304) names.push('ETag');
    if (code === 201 && location) names.push('Location');
    out[status] = {
      ...responses[status],
      headers: { ...responses[status].headers, ...refs('headers', names) },
    };
  }
  op.responses = out;
  op.parameters = [
    ...(op.parameters ?? []),
    ...parameters.map((p) => ({ $ref: `#/components/parameters/${p}` })),
  ];
  if (op.parameters.length === 0) delete op.parameters;
  if (op['x-optional-body']) op.requestBody.required = false;
  delete op['x-optional-body'];
  delete op['x-location'];
}

/** An answer of one resource, which http/etag.ts tags: an object with an id and an updatedAt or createdAt. */
function carriesTag(doc: Json, response: Json): boolean {
  let schema = response?.content?.['application/json']?.schema;
  const ref = typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  if (ref) schema = doc.components?.schemas?.[ref];
  const required: string[] = schema?.required ?? [];
  return required.includes('id') && (required.includes('updatedAt') || required.includes('createdAt'));
}

function withoutKeyword(value: unknown, keyword: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutKeyword(v, keyword));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== keyword)
      .map(([k, v]) => [k, withoutKeyword(v, keyword)]),
  );
}
