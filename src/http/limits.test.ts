import assert from 'node:assert/strict';
import { test } from 'node:test';
import { problem, setup } from '../test/helpers.ts';

const f = await setup();
const doc = (await f.anonymous.get('/openapi.json')).body;

// Every string and array a client may send is bounded in the schema that validates it (and so in the
// OpenAPI document): a value the database would have to store or read back without limit is refused
// at the edge. Generated from the route table, so a new route is covered without anyone remembering.
test('every request string, array and header in the API is bounded', () => {
  const components: Record<string, unknown> = doc.components?.schemas ?? {};
  const unbounded: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: walking JSON Schema as plain JSON.
  const walk = (s: any, where: string, seen: Set<unknown>) => {
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    if (s.$ref) return walk(components[String(s.$ref).split('/').pop()!], where, seen);
    const fixed = s.enum || s.const !== undefined || s.format || s.pattern;
    if (s.type === 'string' && s.maxLength === undefined && !fixed) unbounded.push(`${where}: string`);
    if (s.type === 'array' && s.maxItems === undefined) unbounded.push(`${where}: array`);
    for (const [name, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${name}`, seen);
    if (s.items) walk(s.items, `${where}[]`, seen);
    for (const k of ['anyOf', 'oneOf', 'allOf']) for (const v of s[k] ?? []) walk(v, where, seen);
  };
  let operations = 0;
  for (const [path, ops] of Object.entries<Record<string, Record<string, never>>>(doc.paths)) {
    for (const [method, op] of Object.entries<Record<string, never>>(ops)) {
      operations++;
      // biome-ignore lint/suspicious/noExplicitAny: OpenAPI operation objects.
      const o = op as any;
      walk(o.requestBody?.content?.['application/json']?.schema, `${method} ${path} body`, new Set());
      for (const p of o.parameters ?? []) walk(p.schema, `${method} ${path} ${p.in} ${p.name}`, new Set());
    }
  }
  assert.ok(operations > 60, `only ${operations} operations found`);
  assert.deepEqual(unbounded, []);
});

test('over-large and over-deep bodies are refused with problem+json', async () => {
  const big = await f.owner.raw({
    method: 'POST',
    url: '/v1/tasks',
    payload: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }),
    headers: { 'content-type': 'application/json' },
  });
  problem(big, 413, 'payload_too_large');
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const nested = await f.owner.raw({
    method: 'POST',
    url: '/v1/tasks',
    payload: `{"name":"deep","description":${deep}}`,
    headers: { 'content-type': 'application/json' },
  });
  // It used to overflow the validator's stack: a 500.
  const body = problem(nested, 400, 'validation_failed');
  assert.deepEqual(body.errors, [{ path: '/body', message: 'nests deeper than 32 levels' }]);
  // Within the limit, and strings with brackets in them, are ordinary bodies.
  const fine = await f.owner.post('/v1/teams', { name: '[[[{{{ "quoted" \\ ]]]' });
  assert.equal(fine.status, 201, JSON.stringify(fine.body));
});

test('a URL over the 16 KiB header limit is a problem+json 400 too, from a real socket', async () => {
  const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const res = await fetch(`${address}/v1/tasks/search?name=${'x'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${f.ws.token}` },
    });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    const body = await res.json();
    assert.equal(body.code, 'validation_failed');
    assert.match(body.detail, /over 16 KiB/);
    const fine = await fetch(`${address}/v1/tasks/search?name=${'x'.repeat(200)}`, {
      headers: { authorization: `Bearer ${f.ws.token}` },
    });
    assert.equal(fine.status, 200);
  } finally {
    await f.app.server.close();
  }
});
