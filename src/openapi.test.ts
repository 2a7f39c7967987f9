// /openapi.json as an integrator meets it (docs/decisions.md §8): every operation named, every error declared
// as problem+json, every body with examples, the conventions' statuses and headers. A client generated
// from it type-checking a call to every operation with those examples (and refusing a create without
// its required fields) is @cairn/client's test (client/test/operations.test.ts). Runs once, in the
// SQLite pass: the document does not depend on the database.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onPostgres, setup } from './test/helpers.ts';

const once = onPostgres ? () => {} : test;

// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document.
type Doc = any;

/** A body's examples: the media type's `example`, or the values of its `examples`. */
function bodyExamples(op: Doc): unknown[] {
  const media = op.requestBody.content['application/json'];
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, Doc>).map((e) => e.value);
}

async function document(): Promise<Doc> {
  const f = await setup('sqlite');
  const res = await f.anonymous.get('/openapi.json');
  assert.equal(res.status, 200);
  return res.body;
}

function operations(doc: Doc): { path: string; method: string; op: Doc }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}

once('every operation has a unique operationId, problem+json errors and examples on its body', async () => {
  const doc = await document();
  const ops = operations(doc);
  assert.ok(ops.length >= 33, `${ops.length} operations`);
  const ids = ops.map(({ op }) => op.operationId);
  assert.ok(
    ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
    JSON.stringify(ids),
  );
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const { path, method, op } of ops) {
    const where = `${method} ${path}`;
    if (!path.startsWith('/v1/')) continue;
    for (const [status, ref] of Object.entries(op.responses as Record<string, Doc>)) {
      if (Number(status) < 400) continue;
      // Every error answer is the one problem+json response of its status (http/document.ts).
      assert.equal(ref.$ref, `#/components/responses/Problem${status}`, `${where} ${status}`);
      const response = doc.components.responses[`Problem${status}`];
      assert.deepEqual(Object.keys(response.content), ['application/problem+json'], `${where} ${status}`);
      assert.equal(response.content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
    }
    for (const status of ['400', '401', '405', '429', '500', '503'])
      assert.ok(op.responses[status], `${where} ${status}`);
    if (op.requestBody) {
      assert.ok(op.responses['413'] && op.responses['415'], `${where} declares 413 and 415`);
      assert.ok(bodyExamples(op).length > 0, `${where} has body examples`);
    }
  }
  const taskBody = doc.paths['/v1/tasks'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(
    taskBody.anyOf.map((branch: Doc) => branch.required),
    [['name'], ['id']],
    'a create needs name, an update needs id',
  );
  const search = doc.paths['/v1/tasks/search'].get.parameters;
  const param = (name: string) => search.find((p: Doc) => p.name === name);
  assert.deepEqual(param('matchMode').schema.enum, ['all', 'any']);
  assert.deepEqual(param('includeDeleted').schema.enum, ['true', 'false', '1', '0', '']);
  assert.deepEqual(param('expand').schema.items.enum, [
    'all',
    'none',
    'status',
    'team',
    'area',
    'project',
    'assignee',
  ]);
  assert.equal(param('expand[]'), undefined, 'expand[] is accepted, not documented twice');
  assert.deepEqual(doc.components.schemas.Task.properties.visibility.enum, ['workspace', 'private']);
  for (const section of ['## Authentication', '## Errors', '## Pagination', '## Expansions and flags']) {
    assert.ok(doc.info.description.includes(section), section);
  }
});

/** The names of an operation's header parameters, and of one answer's headers. */
const headerParams = (doc: Doc, op: Doc) =>
  (op.parameters ?? [])
    .map((p: Doc) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p))
    .filter((p: Doc) => p.in === 'header')
    .map((p: Doc) => p.name);
const answerHeaders = (doc: Doc, response: Doc) =>
  Object.keys((response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response).headers);

once('the conventions are in the document: statuses, request and response headers', async () => {
  const doc = await document();
  const op = (path: string, method: string) => doc.paths[path][method];
  const statuses = (path: string, method: string) => Object.keys(op(path, method).responses);
  const rate = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
  // A read of one resource: 304 with If-None-Match, ETag on its 200 and 304.
  assert.deepEqual(statuses('/v1/tasks/{id}', 'get'), [
    '200',
    '304',
    '400',
    '401',
    '404',
    '405',
    '429',
    '500',
    '503',
  ]);
  assert.deepEqual(headerParams(doc, op('/v1/tasks/{id}', 'get')), ['If-None-Match']);
  // Set-Cookie on every success: a request with the session cookie may renew it (http/auth.ts).
  assert.deepEqual(answerHeaders(doc, op('/v1/tasks/{id}', 'get').responses['200']), [
    ...rate,
    'Set-Cookie',
    'ETag',
  ]);
  assert.deepEqual(answerHeaders(doc, op('/v1/tasks/{id}', 'get').responses['304']), [...rate, 'ETag']);
  // A list: no ETag, so neither If-None-Match nor 304.
  assert.deepEqual(statuses('/v1/tasks/search', 'get'), ['200', '400', '401', '405', '429', '500', '503']);
  assert.deepEqual(headerParams(doc, op('/v1/tasks/search', 'get')), []);
  assert.deepEqual(answerHeaders(doc, op('/v1/tasks/search', 'get').responses['200']), [
    ...rate,
    'Set-Cookie',
  ]);
  // A create-or-update: If-Match (for the update), 409 and 422 of the Idempotency-Key, Location on
  // 201; 403 as every write (the session cookie from another origin's page).
  const upsert = op('/v1/tasks', 'post');
  assert.deepEqual(Object.keys(upsert.responses), [
    '200',
    '201',
    '400',
    '401',
    '403',
    '404',
    '405',
    '409',
    '412',
    '413',
    '415',
    '422',
    '429',
    '500',
    '503',
  ]);
  assert.deepEqual(headerParams(doc, upsert), ['Idempotency-Key', 'If-Match']);
  assert.deepEqual(answerHeaders(doc, upsert.responses['201']), [
    ...rate,
    'Idempotent-Replayed',
    'Set-Cookie',
    'ETag',
    'Location',
  ]);
  assert.deepEqual(answerHeaders(doc, upsert.responses['200']), [
    ...rate,
    'Idempotent-Replayed',
    'Set-Cookie',
    'ETag',
  ]);
  // A create only: no If-Match (it could only be 412); the batch: none either (it is 400 there).
  assert.deepEqual(headerParams(doc, op('/v1/posts', 'post')), ['Idempotency-Key']);
  assert.deepEqual(headerParams(doc, op('/v1/task-templates/{id}/create-task', 'post')), ['Idempotency-Key']);
  assert.deepEqual(headerParams(doc, op('/v1/tasks/batch', 'post')), ['Idempotency-Key']);
  assert.equal(op('/v1/tasks/batch', 'post').responses['412'], undefined);
  // A task made from a template is read at /v1/tasks/{id}; its body may be left out.
  const fromTemplate = op('/v1/task-templates/{id}/create-task', 'post');
  assert.ok(answerHeaders(doc, fromTemplate.responses['201']).includes('Location'));
  assert.ok(answerHeaders(doc, fromTemplate.responses['201']).includes('Skipped-Task-Templates'));
  assert.equal(fromTemplate.requestBody.required, false);
  assert.equal(op('/v1/tasks', 'post').requestBody.required, true);
  // A reaction has no read of its own: no Location.
  assert.ok(
    !answerHeaders(doc, op('/v1/posts/{id}/reactions', 'post').responses['201']).includes('Location'),
  );
  // DELETE: If-Match, 409, no Idempotency-Key.
  assert.deepEqual(headerParams(doc, op('/v1/tasks/{id}', 'delete')), ['If-Match']);
  assert.ok(statuses('/v1/tasks/{id}', 'delete').includes('409'));
  // The error answers' headers.
  const problemHeaders = (status: number) =>
    Object.keys(doc.components.responses[`Problem${status}`].headers);
  assert.deepEqual(problemHeaders(429), [...rate, 'Retry-After', 'Idempotent-Replayed']);
  assert.deepEqual(problemHeaders(503), [...rate, 'Retry-After']);
  assert.deepEqual(problemHeaders(401), [...rate, 'WWW-Authenticate', 'Idempotent-Replayed']);
  assert.ok(problemHeaders(405).includes('Allow'));
  // Health checks are not rate limited; /readyz's 503 says when to look again.
  assert.deepEqual(answerHeaders(doc, op('/readyz', 'get').responses['503']), [
    'X-Request-Id',
    'Retry-After',
  ]);
  // Every /v1 operation: 429 and 503; every POST 409 and 422 and the Idempotency-Key; If-None-Match
  // only beside a 304, and If-Match only beside a 412.
  for (const { path, method, op: o } of operations(doc)) {
    if (!path.startsWith('/v1/')) continue;
    const where = `${method} ${path}`;
    const has = (s: string) => o.responses[s] !== undefined;
    assert.ok(has('429') && has('503'), where);
    if (method === 'post') assert.ok(has('409') && has('422'), where);
    if (method === 'post' || method === 'delete') assert.ok(has('403'), where);
    if (method === 'post') assert.ok(headerParams(doc, o).includes('Idempotency-Key'), where);
    assert.equal(headerParams(doc, o).includes('If-None-Match'), has('304'), where);
    if (headerParams(doc, o).includes('If-Match')) assert.ok(has('412'), where);
  }
});
