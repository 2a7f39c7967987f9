// Property-based fuzzing of the whole API (issue 11), generated from the OpenAPI document the app
// serves, so every route is covered as soon as it exists. Each case takes one operation, builds a
// request from its own schemas (path ids real or foreign or junk, query and body as the schema says)
// and then breaks it: wrong types, nulls, odd Unicode, huge strings, deep objects, unknown fields,
// search syntax, replayed or forged cursors. Every answer must be a valid resource or problem+json, never
// a 5xx, and no error may quote a regular expression (problem-text.ts); and a rejected request (4xx)
// must leave the database exactly as it was.
// Used by src/fuzz.test.ts (a fixed-seed slice in `npm test`) and scripts/fuzz.ts (`npm run fuzz`).
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import type { App } from '../http/app-type.ts';
import { pathologicalCorpus } from './pathological.ts';
import { regexQuotesIn } from './problem-text.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema and OpenAPI are walked as plain JSON.
type Json = any;

export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  params: Json[];
  body: Json | undefined;
  /** Its 200 is a stream of Server-Sent Events (GET /v1/events/stream), which never ends by itself. */
  stream: boolean;
}

export interface Finding {
  request: string;
  status: number;
  why: string;
}

const NASTY: unknown[] = [
  null,
  0,
  -1,
  1e308,
  -0.5,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  [],
  {},
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  'שלום עולם',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'x'.repeat(10_000),
  'word'.repeat(2_600),
  '"',
  '*',
  'NEAR(a b)',
  'name:foo',
  "'",
  '\\',
  '-x',
  '^x',
  'a AND b OR c',
  'AND',
  '"unbalanced',
  '(((',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '2026-13-45T99:99:99Z',
  '1e400',
  { a: { b: { c: { d: { e: {} } } } } },
  Array.from({ length: 200 }, () => 'x'),
];

const NASTY_TEXT = NASTY.filter((v): v is string => typeof v === 'string');

/** UUIDs spelled as PostgreSQL's uuid input or other libraries may take them, but the API does not. */
const otherUuids = fc
  .uuid()
  .chain((u) =>
    fc.constantFrom(`urn:uuid:${u}`, `{${u}}`, u.replaceAll('-', ''), u.toUpperCase(), ` ${u}`, `${u}\n`),
  );

// Rich text fields (marked x-rich-text) also get the inputs that make Markdown and HTML converters
// slow (src/test/pathological.ts), at a tenth of the size limit so that a run stays quick.
const PATHOLOGICAL = pathologicalCorpus(20_000).map((c) => c.input);

/** The operations of the OpenAPI document under /v1, with their parameters and JSON body schema. */
export function operationsOf(doc: Json): { operations: Operation[]; components: Record<string, Json> } {
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries<Json>(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries<Json>(ops)) {
      const upper = method.toUpperCase();
      if (upper !== 'GET' && upper !== 'POST' && upper !== 'DELETE') continue;
      operations.push({
        method: upper,
        path,
        params: (op.parameters ?? []).filter((p: Json) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
        stream: Boolean(op.responses?.['200']?.content?.['text/event-stream']),
      });
    }
  }
  return { operations, components: doc.components?.schemas ?? {} };
}

/** A value of `schema` (valid as far as the generator knows; mutations come on top). */
function arbitraryFor(
  schema: Json,
  components: Record<string, Json>,
  ids: string[],
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.$ref)
    return arbitraryFor(components[String(schema.$ref).split('/').pop()!], components, ids, depth + 1);
  if (schema['x-rich-text'] && depth < 6) {
    const plain = arbitraryFor({ ...schema, 'x-rich-text': undefined }, components, ids, depth);
    const pathological = fc.constantFrom(...PATHOLOGICAL);
    const asText = pathological.map((input) => (typeof input === 'string' ? input : input.html));
    return fc.oneof(plain, schema.anyOf ? pathological : asText);
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return fc.oneof(...alternatives.map((s: Json) => arbitraryFor(s, components, ids, depth + 1)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  const options: fc.Arbitrary<unknown>[] = [];
  for (const t of type) {
    if (t === 'null') options.push(fc.constant(null));
    else if (t === 'boolean') options.push(fc.boolean());
    else if (t === 'integer' || t === 'number') {
      options.push(
        fc.integer({
          min: Math.max(schema.minimum ?? -1000, -1e9),
          max: Math.min(schema.maximum ?? 1000, 1e9),
        }),
      );
    } else if (t === 'string') {
      if (schema.format === 'uuid' || /uuid|[0-9a-f]\{8\}/i.test(schema.pattern ?? '')) {
        options.push(ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), fc.uuid()) : fc.uuid(), otherUuids);
      } else if (schema.format === 'date-time') {
        options.push(
          fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()),
        );
      } else if (schema.format === 'date') {
        options.push(
          fc
            .date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) })
            .map((d) => d.toISOString().slice(0, 10)),
        );
      } else {
        const max = Math.min(schema.maxLength ?? 40, 40);
        options.push(
          fc.string({ minLength: Math.min(schema.minLength ?? 0, max), maxLength: max, unit: 'grapheme' }),
        );
      }
    } else if (t === 'array') {
      options.push(
        fc.array(arbitraryFor(schema.items, components, ids, depth + 1), {
          maxLength: Math.min(schema.maxItems ?? 3, 3),
        }),
      );
    } else if (t === 'object' || schema.properties) {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries<Json>(schema.properties ?? {}))
        props[name] = arbitraryFor(s, components, ids, depth + 1);
      options.push(
        fc.record(props, { requiredKeys: (schema.required ?? []).filter((k: string) => k in props) }),
      );
    }
  }
  return options.length > 0 ? fc.oneof(...options) : fc.constant(null);
}

/** Breaks a generated value at one place: a field replaced by something nasty, or an unknown field. */
function broken(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const nasty = fc.constantFrom(...NASTY);
  return fc.oneof(
    { weight: 3, arbitrary: value },
    { weight: 1, arbitrary: nasty },
    {
      weight: 4,
      arbitrary: fc.tuple(value, nasty, fc.nat(), fc.boolean()).map(([v, bad, pick, unknown]) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return bad;
        const copy = { ...(v as Record<string, unknown>) };
        const keys = Object.keys(copy);
        if (unknown || keys.length === 0) copy[`unknown${pick % 3}`] = bad;
        else copy[keys[pick % keys.length]!] = bad;
        return copy;
      }),
    },
  );
}

/** Percent-encoding that also sends what a string with lone surrogates would be on the wire: bad UTF-8. */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return `${encodeURIComponent(s.toWellFormed())}%ED%A0%80`;
  }
}

function queryValue(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

export interface FuzzRequest {
  method: Operation['method'];
  url: string;
  payload: string | undefined;
  stream?: boolean;
}

/** Requests for the operations, valid-ish then broken; `ids` are ids of things that exist (or do elsewhere). */
export function requests(
  operations: Operation[],
  components: Record<string, Json>,
  ids: string[],
  cursors: () => string[],
): fc.Arbitrary<FuzzRequest> {
  const idLike = fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom('0', '-1', '99999999999', '1', 'ENG', 'nope', 'x'.repeat(300)),
    fc.constantFrom(...NASTY_TEXT),
    fc.uuid(),
    otherUuids,
  );
  return fc.constantFrom(...operations).chain((op) => {
    const pathParams = op.params.filter((p) => p.in === 'path');
    const queryParams = op.params.filter((p) => p.in === 'query');
    const path = fc.tuple(...pathParams.map(() => idLike)).map((values) => {
      let url = op.path;
      pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, encode(String(values[i])));
      });
      return url;
    });
    const query = fc
      .tuple(
        ...queryParams.map((p) =>
          fc.option(
            p.name === 'cursor'
              ? fc.oneof(
                  fc.constantFrom(...NASTY_TEXT),
                  fc.constant(null).map(() => cursors()[0] ?? 'none'),
                  fc.base64String({ maxLength: 80 }),
                )
              : broken(arbitraryFor(p.schema, components, ids)),
            { freq: 2 },
          ),
        ),
      )
      .map((values) => {
        const parts: string[] = [];
        queryParams.forEach((p, i) => {
          const v = values[i];
          if (v === null || v === undefined) return;
          parts.push(`${encode(p.name)}=${encode(queryValue(v))}`);
        });
        return parts.length > 0 ? `?${parts.join('&')}` : '';
      });
    const body =
      op.body === undefined
        ? fc.constant(undefined)
        : broken(arbitraryFor(op.body, components, ids)).map((v) => JSON.stringify(v));
    return fc
      .tuple(path, query, body)
      .map(([p, q, b]) => ({ method: op.method, url: `${p}${q}`, payload: b, stream: op.stream }));
  });
}

/**
 * A cheap fingerprint of everything a request could change: per table its row count and its newest
 * change. Token rows count only (authentication touches last_used_at).
 */
export async function fingerprint(database: Database): Promise<string> {
  const tables = [
    'workspaces',
    'users',
    'groups',
    'group_members',
    'task_statuses',
    'task_labels',
    'collections',
    'project_statuses',
    'projects',
    'project_teams',
    'tasks',
    'task_label_links',
    'posts',
    'documents',
    'post_images',
    'post_reactions',
    'task_templates',
    'project_templates',
    'webhook_subscriptions',
    'webhook_replays',
    'events',
    'counters',
    'invitations',
    'password_tokens',
    // Sign-in is public and fuzzed too: a refused one must start no session.
    'sessions',
  ];
  const parts = tables.map((t) => `(select count(*) from ${t}) as ${t}`);
  const changed = [
    'projects',
    'tasks',
    'posts',
    'documents',
    'groups',
    'task_templates',
    'project_templates',
  ].map((t) => `(select max(updated_at) from ${t}) as ${t}_at`);
  const counters = '(select sum(value) from counters) as counter_sum';
  const row = await sql
    .raw(
      `select ${[...parts, ...changed, counters, '(select count(*) from api_tokens) as tokens'].join(', ')}`,
    )
    .execute(database.db);
  return JSON.stringify(row.rows[0], (_k, v) =>
    typeof v === 'bigint' ? String(v) : v instanceof Date ? v.toISOString() : v,
  );
}

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * A stream's answer: a 200 is read up to its first frame (the opening comment) and then cut off, as
 * a client that goes away; any other answer is read whole.
 */
async function streamAnswer(app: App, r: FuzzRequest, headers: Record<string, string>): Promise<Answer> {
  const res = await app.inject({ method: r.method, url: r.url, headers, payloadAsStream: true });
  const stream = res.stream();
  if (res.statusCode === 200) {
    const first = await new Promise<string>((resolve) => {
      stream.once('data', (chunk: Buffer) => resolve(String(chunk)));
      stream.once('end', () => resolve(''));
    });
    (res.raw.res as unknown as { destroy(): void }).destroy();
    stream.on('error', () => {});
    return { statusCode: 200, headers: res.headers, body: first };
  }
  let body = '';
  for await (const chunk of stream) body += String(chunk);
  return { statusCode: res.statusCode, headers: res.headers, body };
}

/** Sends one request and checks its answer; the finding, or null when it is as it should be. */
export async function check(
  app: App,
  token: string,
  r: FuzzRequest,
): Promise<{ status: number; finding: Finding | null; body: Json }> {
  const headers = {
    authorization: `Bearer ${token}`,
    ...(r.payload !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  const res: Answer = r.stream
    ? await streamAnswer(app, r, headers)
    : await app.inject({ method: r.method, url: r.url, payload: r.payload, headers });
  const request = `${r.method} ${r.url} ${r.payload?.slice(0, 300) ?? ''}`;
  const fail = (why: string) => ({
    status: res.statusCode,
    finding: { request, status: res.statusCode, why },
    body: null,
  });
  if (res.statusCode >= 500) return fail(`server error: ${res.body.slice(0, 300)}`);
  if (res.statusCode === 204 || res.statusCode === 304) {
    return res.body === ''
      ? { status: res.statusCode, finding: null, body: null }
      : fail('a body on an empty answer');
  }
  const type = String(res.headers['content-type'] ?? '');
  if (r.stream && res.statusCode === 200) {
    if (!type.startsWith('text/event-stream')) return fail(`a stream as ${type}`);
    if (!res.body.startsWith(': stream open\n\n'))
      return fail(`a stream that opens with ${res.body.slice(0, 100)}`);
    return { status: res.statusCode, finding: null, body: null };
  }
  let body: Json;
  try {
    body = JSON.parse(res.body);
  } catch {
    return fail(`not JSON: ${res.body.slice(0, 200)}`);
  }
  if (res.statusCode >= 400) {
    if (!type.startsWith('application/problem+json')) return fail(`error as ${type}`);
    if (
      body.status !== res.statusCode ||
      typeof body.code !== 'string' ||
      typeof body.requestId !== 'string' ||
      typeof body.detail !== 'string'
    ) {
      return fail(`malformed problem: ${res.body.slice(0, 300)}`);
    }
    const quotes = regexQuotesIn(body);
    if (quotes.length > 0) return fail(`an error that quotes a regular expression: ${quotes.join('; ')}`);
  } else if (!type.startsWith('application/json')) {
    return fail(`resource as ${type}`);
  }
  return { status: res.statusCode, finding: null, body };
}
