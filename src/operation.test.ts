// Health, readiness, the OpenAPI document and the docs page (docs/decisions.md §8).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { setup } from './test/helpers.ts';

const f = await setup();

test('healthz and readyz answer without a token', async () => {
  const health = await f.anonymous.get('/healthz');
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { status: 'ok' });
  const ready = await f.anonymous.get('/readyz');
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body, { status: 'ok' });
});

test('/openapi.json is valid OpenAPI 3.1 and describes every /v1 route with its errors', async () => {
  const res = await f.anonymous.get('/openapi.json');
  assert.equal(res.status, 200);
  const spec = res.body;
  assert.equal(spec.openapi, '3.1.0');
  const result = await new Validator().validate(spec);
  assert.equal(result.valid, true, JSON.stringify(result.errors));

  const routes = f.app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .filter((l) => l.includes('/v1/'));
  assert.ok(routes.length > 0);
  const expected = [
    ['get', '/v1/me'],
    ['post', '/v1/users'],
    ['get', '/v1/users'],
    ['post', '/v1/api-tokens'],
    ['delete', '/v1/api-tokens/{id}'],
    ['post', '/v1/teams'],
    ['get', '/v1/teams/{id}'],
    ['post', '/v1/teams/{id}/archive'],
    ['post', '/v1/teams/{id}/unarchive'],
    ['get', '/v1/teams/search'],
    ['post', '/v1/areas'],
    ['get', '/v1/areas/{id}'],
    ['post', '/v1/areas/{id}/archive'],
    ['post', '/v1/areas/{id}/unarchive'],
    ['get', '/v1/collections'],
    ['post', '/v1/collections'],
    ['get', '/v1/project-statuses'],
    ['post', '/v1/project-statuses'],
    ['post', '/v1/projects'],
    ['get', '/v1/projects/{id}'],
    ['post', '/v1/projects/{id}/archive'],
    ['post', '/v1/projects/{id}/unarchive'],
    ['post', '/v1/projects/{id}/status-update'],
    ['get', '/v1/projects/list'],
    ['get', '/v1/projects/search'],
    ['post', '/v1/tasks'],
    ['get', '/v1/tasks/{id}'],
    ['delete', '/v1/tasks/{id}'],
    ['post', '/v1/tasks/{id}/restore'],
    ['get', '/v1/tasks/search'],
    ['post', '/v1/tasks/batch'],
  ];
  for (const [method, path] of expected) {
    const op = spec.paths[path]?.[method];
    assert.ok(op, `${method} ${path} missing`);
    assert.ok(op.responses['400'], `${method} ${path} has no 400`);
    assert.ok(op.responses['401'], `${method} ${path} has no 401`);
    const success = Object.keys(op.responses).filter((c) => c.startsWith('2'));
    assert.ok(success.length > 0, `${method} ${path} has no success response`);
  }
  assert.ok(spec.paths['/v1/teams'].post.requestBody, 'request bodies are described');
  assert.ok(spec.components.schemas.Problem, 'the problem schema is shared');
  for (const name of ['Task', 'Project', 'Team', 'Area']) assert.ok(spec.components.schemas[name], name);
  assert.ok(spec.paths['/v1/tasks/search'].get.responses['200'], 'search has its page shape');
});

test('/docs renders the reference page', async () => {
  const res = await f.anonymous.get('/docs/');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.match(res.body, /swagger-ui/i);
});
