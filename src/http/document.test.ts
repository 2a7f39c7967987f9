// Each status of the conventions (304, 409, 412, 422, 429, 503) provoked for real, with its headers, and
// found in /openapi.json on the operation that answered it (http/document.ts). Every other answer of the
// suite is checked against the document by test/declared.ts; this file makes sure each of these
// statuses is among them, on both databases.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { onPostgres, problem, type Response, setup } from '../test/helpers.ts';

const f = await setup();
const doc = (await f.anonymous.get('/openapi.json')).body;
const team = (await f.owner.post('/v1/teams', { name: 'Conventions' })).body;

/** Asserts the document lists `res.status` for the operation and declares each of `headers` on it. */
function declared(method: string, path: string, res: Response, headers: string[]): void {
  let response = doc.paths[path][method].responses[String(res.status)];
  assert.ok(response, `${method} ${path} does not list ${res.status}`);
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  for (const name of headers) {
    assert.ok(res.headers[name.toLowerCase()] !== undefined, `${res.status} without ${name}`);
    assert.ok(response.headers[name], `${method} ${path} ${res.status} does not declare ${name}`);
  }
}

test('201 with Location and ETag; 304 with ETag on If-None-Match', async () => {
  const made = await f.owner.post('/v1/tasks?expand=none', { name: 'Read me', teamId: team.id });
  assert.equal(made.status, 201);
  assert.equal(made.headers.location, `http://cairn.test/v1/tasks/${made.body.id}`);
  declared('post', '/v1/tasks', made, ['Location', 'ETag', 'X-Request-Id', 'RateLimit-Remaining']);
  const read = await f.owner.get(String(made.headers.location).slice('http://cairn.test'.length));
  assert.equal(read.status, 200);
  const again = await f.owner.get(`/v1/tasks/${made.body.id}`, {
    'if-none-match': String(read.headers.etag),
  });
  assert.equal(again.status, 304);
  assert.equal(again.headers.etag, read.headers.etag);
  declared('get', '/v1/tasks/{id}', again, ['ETag', 'X-Request-Id']);
  // A task made from a template is read where tasks are.
  const area = (await f.owner.post('/v1/areas', { name: 'Templates' })).body;
  const template = await f.owner.post('/v1/task-templates', { name: 'Template', areaId: area.id });
  assert.equal(template.status, 201, JSON.stringify(template.body));
  assert.equal(template.headers.location, `http://cairn.test/v1/task-templates/${template.body.id}`);
  const fromTemplate = await f.owner.post(`/v1/task-templates/${template.body.id}/create-task?expand=none`);
  assert.equal(fromTemplate.status, 201, JSON.stringify(fromTemplate.body));
  assert.equal(fromTemplate.headers.location, `http://cairn.test/v1/tasks/${fromTemplate.body.id}`);
  // A reaction has no read of its own, so no Location.
  const post = await f.owner.post('/v1/posts', { entityType: 'task', entityId: made.body.id, content: 'Hi' });
  const reaction = await f.owner.post(`/v1/posts/${post.body.id}/reactions`, { reaction: 'eyes' });
  assert.equal(reaction.status, 201);
  assert.equal(reaction.headers.location, undefined);
});

test('412 on a stale If-Match; 409 on a restore of a live task', async () => {
  const made = await f.owner.post('/v1/tasks?expand=none', { name: 'Change me', teamId: team.id });
  const stale = await f.owner.post(
    '/v1/tasks?expand=none',
    { id: made.body.id, name: 'Changed' },
    { 'if-match': '"zz-stale"' },
  );
  problem(stale, 412, 'precondition_failed');
  declared('post', '/v1/tasks', stale, ['X-Request-Id']);
  const restore = await f.owner.post(`/v1/tasks/${made.body.id}/restore`);
  problem(restore, 409, 'not_deleted');
  declared('post', '/v1/tasks/{id}/restore', restore, ['X-Request-Id']);
});

test('a replay carries Idempotent-Replayed; the key with another body is 422', async () => {
  const key = { 'idempotency-key': `conventions-${Date.now()}` };
  const first = await f.owner.post('/v1/teams', { name: 'Once' }, key);
  assert.equal(first.status, 201);
  const replay = await f.owner.post('/v1/teams', { name: 'Once' }, key);
  assert.equal(replay.status, 201);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.headers.location, first.headers.location);
  declared('post', '/v1/teams', replay, ['Idempotent-Replayed', 'Location', 'ETag']);
  const reused = await f.owner.post('/v1/teams', { name: 'Twice' }, key);
  problem(reused, 422, 'idempotency_key_reused');
  declared('post', '/v1/teams', reused, ['X-Request-Id']);
});

test('429 with Retry-After past the budget', async () => {
  const limited = await setup(undefined, { CAIRN_RATE_LIMIT: '2' });
  let res = await limited.owner.get('/v1/me');
  for (let i = 0; i < 3 && res.status !== 429; i++) res = await limited.owner.get('/v1/me');
  problem(res, 429, 'rate_limited');
  declared('get', '/v1/me', res, [
    'Retry-After',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
  ]);
});

test('503 with Retry-After while the database cannot answer', async () => {
  const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Locked', teamId: team.id })).body;
  let res: Response;
  if (onPostgres) {
    // A transaction holds the task's row; five writes wait on it, one connection each (the test pool
    // has five), and a sixth request waits for a connection past the connect timeout (5 s).
    let release = () => {};
    const held = f.database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('tasks').select('id').where('id', '=', task.id).forUpdate().execute();
      await new Promise<void>((r) => {
        release = r;
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    const writes = [1, 2, 3, 4].map((n) =>
      f.owner.post('/v1/tasks?expand=none', { id: task.id, name: `W${n}` }),
    );
    await new Promise((r) => setTimeout(r, 200));
    res = await f.owner.get(`/v1/tasks/${task.id}`);
    release();
    await held;
    await Promise.all(writes);
  } else {
    // Another writer holds SQLite's write lock past the busy timeout (5 s).
    const other = new DatabaseSync(f.database.description.slice('sqlite:'.length));
    other.exec('begin immediate');
    try {
      res = await f.owner.post('/v1/tasks?expand=none', { id: task.id, name: 'Waits' });
    } finally {
      other.exec('rollback');
      other.close();
    }
  }
  problem(res, 503, 'unavailable');
  declared(onPostgres ? 'get' : 'post', onPostgres ? '/v1/tasks/{id}' : '/v1/tasks', res, ['Retry-After']);
});

test("an answer the document does not declare fails the request's test (test/declared.ts)", async () => {
  const other = await setup();
  const tag = String((await other.owner.get('/v1/me')).headers.etag);
  // The app's own document, as the check reads it, with the ETag and the 304 of GET /v1/me removed.
  const own = other.app.swagger() as { paths: Record<string, Record<string, Response['body']>> };
  const read = own.paths['/v1/me']!.get;
  delete read.responses['200'].headers.ETag;
  delete read.responses['304'];
  await assert.rejects(other.owner.get('/v1/me'), /GET \/v1\/me answered 200 with header etag, which/);
  await assert.rejects(
    other.owner.get('/v1/me', { 'if-none-match': tag }),
    /GET \/v1\/me answered 304, a status the document does not list/,
  );
});
