// The conventions every route shares (docs/decisions.md §4–§6), checked through real routes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { problem, setup } from '../test/helpers.ts';

const f = await setup();

describe('authentication', () => {
  test('no token is 401 with a Bearer challenge', async () => {
    const res = await f.anonymous.get('/v1/me');
    problem(res, 401, 'unauthenticated');
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="cairn"');
  });

  test('a wrong token, or another scheme, is 401 and says why in the challenge', async () => {
    const wrong = await f.anonymous.get('/v1/me', { authorization: 'Bearer cairn_nope' });
    problem(wrong, 401, 'unauthenticated');
    assert.equal(wrong.headers['www-authenticate'], 'Bearer realm="cairn", error="invalid_token"');
    const basic = await f.anonymous.get('/v1/me', { authorization: 'Basic dXNlcjpwYXNz' });
    problem(basic, 401, 'unauthenticated');
    assert.equal(basic.headers['www-authenticate'], 'Bearer realm="cairn", error="invalid_request"');
  });

  test('authentication comes before validation: a bad body without a token is still 401', async () => {
    problem(await f.anonymous.post('/v1/teams', { nope: 1 }), 401, 'unauthenticated');
  });
});

describe('routing', () => {
  test('an unknown path is 404 not_found as problem+json', async () => {
    const res = await f.owner.get('/v1/nothing-here');
    const body = problem(res, 404, 'not_found');
    assert.equal(body.type, 'urn:cairn:problem:not_found');
    assert.equal(body.title, 'Not found');
  });

  test('a known path with another method is 405 with Allow', async () => {
    const res = await f.owner.raw({ method: 'PUT', url: '/v1/teams' });
    problem(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'POST');
    const get = await f.owner.raw({ method: 'DELETE', url: '/v1/me' });
    problem(get, 405, 'method_not_allowed');
    assert.equal(get.headers.allow, 'GET');
  });

  test('a GET on a create-only collection points to where to read it', async () => {
    const tasks = problem(await f.owner.get('/v1/tasks'), 405, 'method_not_allowed');
    assert.equal(
      tasks.detail,
      'GET is not allowed here; use POST. To list or find these, use GET /v1/tasks/search',
    );
    const projects = problem(await f.owner.get('/v1/projects'), 405, 'method_not_allowed');
    assert.match(projects.detail, /use GET \/v1\/projects\/search$/);
    const areas = problem(await f.owner.get('/v1/areas'), 405, 'method_not_allowed');
    assert.equal(areas.detail, 'GET is not allowed here; use POST', 'no hint where there is no reader');
  });

  test("a malformed URL is 400 problem+json, not the router's own error", async () => {
    const body = problem(await f.owner.get('/v1/tasks/%C0%80'), 400, 'validation_failed');
    assert.match(body.detail, /^The URL is malformed/);
  });
});

describe('request bodies', () => {
  test('malformed JSON is 400 invalid_json', async () => {
    const res = await f.owner.raw({
      method: 'POST',
      url: '/v1/teams',
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    problem(res, 400, 'invalid_json');
  });

  test('a body that is not JSON is 415 unsupported_media_type', async () => {
    const res = await f.owner.raw({
      method: 'POST',
      url: '/v1/teams',
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const body = problem(res, 415, 'unsupported_media_type');
    assert.equal(
      body.detail,
      'Send the body as JSON with Content-Type: application/json (got application/x-www-form-urlencoded)',
    );
  });

  test('text/plain and a missing Content-Type are 415 on every route with a body, and create nothing', async () => {
    for (const url of ['/v1/teams', '/v1/tasks', '/v1/projects', '/v1/users', '/v1/tasks/batch']) {
      const plain = await f.owner.raw({
        method: 'POST',
        url,
        payload: '{"name": "Plain text team"}',
        headers: { 'content-type': 'text/plain' },
      });
      assert.match(problem(plain, 415, 'unsupported_media_type').detail, /got text\/plain/, url);
      const none = await f.owner.raw({ method: 'POST', url, payload: '{"name": "Plain text team"}' });
      assert.match(problem(none, 415, 'unsupported_media_type').detail, /none was sent/, url);
    }
    assert.equal((await f.owner.get('/v1/teams/search?name=plain')).body.total, 0);
    const vendor = await f.owner.raw({
      method: 'POST',
      url: '/v1/teams?expand=none',
      payload: '{"name": "Vendor JSON team"}',
      headers: { 'content-type': 'application/vnd.cairn+json; charset=utf-8' },
    });
    assert.equal(vendor.status, 201, 'any +json type is JSON');
  });

  test('a body in another charset is 415, and a charset of UTF-8 is accepted however written', async () => {
    const send = (type: string, name: string) =>
      f.owner.raw({
        method: 'POST',
        url: '/v1/teams?expand=none',
        payload: Buffer.from(JSON.stringify({ name }), 'latin1'),
        headers: { 'content-type': type },
      });
    for (const type of [
      'application/json; charset=iso-8859-1',
      'application/json;charset="latin1"',
      'application/vnd.cairn+json; charset=UTF-16',
    ]) {
      const body = problem(await send(type, 'Caf\u00e9 latin'), 415, 'unsupported_media_type');
      assert.match(body.detail, /^Send the body as JSON in UTF-8 \(got charset /, type);
    }
    assert.equal((await f.owner.get('/v1/teams/search?name=latin')).body.total, 0);
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"']) {
      assert.equal((await send(type, `Plain ascii ${type.length}`)).status, 201, type);
    }
  });

  test('bytes that are not UTF-8 are 400 invalid_json and nothing is stored', async () => {
    for (const bytes of [
      [0xe9], // Latin-1 é
      [0xc3], // a sequence cut short
      [0xed, 0xa0, 0x80], // an encoded surrogate
      [0xc0, 0xaf], // an overlong '/'
    ]) {
      const payload = Buffer.concat([
        Buffer.from('{"name": "Bad bytes '),
        Buffer.from(bytes),
        Buffer.from('"}'),
      ]);
      const res = await f.owner.raw({
        method: 'POST',
        url: '/v1/teams',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(problem(res, 400, 'invalid_json').detail, 'The body is not valid UTF-8', String(bytes));
    }
    assert.equal((await f.owner.get('/v1/teams/search?name=bad%20bytes')).body.total, 0);
    const good = await f.owner.raw({
      method: 'POST',
      url: '/v1/teams?expand=none',
      payload: Buffer.from('{"name": "Good bytes \u00e9\u{1f600}"}'),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(good.status, 201);
    assert.equal(good.body.name, 'Good bytes \u00e9\u{1f600}');
  });

  test('a body over 2 MiB is 413 payload_too_large', async () => {
    const res = await f.owner.post('/v1/teams', { name: 'x'.repeat(2 * 1024 * 1024 + 10) });
    problem(res, 413, 'payload_too_large');
  });

  test('unknown fields are 400 with the field named, and nothing is created', async () => {
    const res = await f.owner.post('/v1/teams', { name: 'Ghost team', colour: '#ffffff' });
    const body = problem(res, 400, 'validation_failed');
    assert.deepEqual(body.errors, [{ path: '/body/colour', message: 'is not a known field' }]);
    const search = await f.owner.get('/v1/teams/search?name=ghost');
    assert.equal(search.body.total, 0);
  });

  test('wrong types are not coerced in bodies', async () => {
    const res = await f.owner.post('/v1/teams', { name: 42, privacy: 'secret', color: 'red' });
    const body = problem(res, 400, 'validation_failed');
    const paths = body.errors.map((e: { path: string }) => e.path).sort();
    assert.ok(paths.includes('/body/name'), JSON.stringify(body.errors));
    assert.ok(paths.includes('/body/privacy'), JSON.stringify(body.errors));
    assert.ok(paths.includes('/body/color'), JSON.stringify(body.errors));
  });

  test('a create without its required fields names them, not the update form', async () => {
    const body = problem(await f.owner.post('/v1/teams', { privacy: 'private' }), 400, 'validation_failed');
    assert.deepEqual(body.errors, [{ path: '/body/name', message: 'is required' }]);
    const user = problem(await f.owner.post('/v1/users', { name: 'No Email' }), 400, 'validation_failed');
    assert.deepEqual(user.errors, [{ path: '/body/email', message: 'is required' }]);
    const update = problem(
      await f.owner.post('/v1/teams', { id: 'NOPE', privacy: 'secret' }),
      400,
      'validation_failed',
    );
    assert.deepEqual(update.errors, [
      { path: '/body/privacy', message: 'must be one of: workspace, private' },
    ]);
  });

  test('a missing body where one is required is 400 validation_failed', async () => {
    problem(await f.owner.post('/v1/teams'), 400, 'validation_failed');
    problem(await f.owner.post('/v1/users', []), 400, 'validation_failed');
  });

  test('names are 1 to 512 characters and not blank', async () => {
    problem(await f.owner.post('/v1/teams', { name: '' }), 400, 'validation_failed');
    problem(await f.owner.post('/v1/teams', { name: '   ' }), 400, 'validation_failed');
    problem(await f.owner.post('/v1/teams', { name: 'n'.repeat(513) }), 400, 'validation_failed');
    const ok = await f.owner.post('/v1/teams', { name: `  ${'n'.repeat(510)}  ` });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.name, 'n'.repeat(510));
  });
});

describe('query conventions', () => {
  test('string flags take true/false/1/0 in any case, and a bare flag is true', async () => {
    for (const value of ['true', 'TRUE', 'False', '1', '0']) {
      const res = await f.owner.get(`/v1/teams/search?includeArchived=${value}`);
      assert.equal(res.status, 200, value);
    }
    assert.equal((await f.owner.get('/v1/teams/search?includeArchived')).status, 200);
    const bad = problem(await f.owner.get('/v1/teams/search?includeArchived=yes'), 400, 'validation_failed');
    assert.deepEqual(bad.errors, [
      { path: '/query/includeArchived', message: 'must be one of: true, false, 1, 0' },
    ]);
  });

  test('unknown query parameters are 400 naming the parameter, on every route', async () => {
    for (const url of [
      '/v1/tasks/search?nmae=x',
      '/v1/me?x=1',
      '/v1/teams/ENG?colour=red',
      '/v1/users?offest=2',
    ]) {
      const body = problem(await f.owner.get(url), 400, 'validation_failed');
      const name = new URL(url, 'http://x').searchParams.keys().next().value;
      assert.deepEqual(
        body.errors,
        [{ path: `/query/${name}`, message: 'is not a known query parameter' }],
        url,
      );
    }
    problem(await f.owner.delete('/v1/tasks/1?force=true'), 400, 'validation_failed');
    problem(await f.owner.post('/v1/teams?dryRun=1', { name: 'Dry run' }), 400, 'validation_failed');
    assert.equal((await f.owner.get('/v1/teams/search?name=dry')).body.total, 0);
  });

  test('limit is 1 to 100; anything else is 400', async () => {
    for (const limit of ['0', '101', '-1', 'abc', '1.5']) {
      const res = await f.owner.get(`/v1/teams/search?limit=${limit}`);
      const body = problem(res, 400, 'validation_failed');
      assert.equal(body.errors[0].path, '/query/limit', limit);
    }
    assert.equal((await f.owner.get('/v1/teams/search?limit=100')).status, 200);
  });

  test('expand takes all, none, a list, repeats and expand[]; unknown names are 400', async () => {
    const created = await f.owner.post('/v1/teams', { name: 'Expand Team' });
    const id = created.body.id;
    const keys = async (qs: string) => {
      const res = await f.owner.get(`/v1/teams/${id}${qs}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return ['members', 'taskStatuses', 'taskLabels'].filter((k) => k in res.body);
    };
    assert.deepEqual(await keys(''), ['members', 'taskStatuses', 'taskLabels']);
    assert.deepEqual(await keys('?expand=all'), ['members', 'taskStatuses', 'taskLabels']);
    assert.deepEqual(await keys('?expand=none'), []);
    assert.deepEqual(await keys('?expand=members,taskLabels'), ['members', 'taskLabels']);
    assert.deepEqual(await keys('?expand=members&expand=taskStatuses'), ['members', 'taskStatuses']);
    assert.deepEqual(await keys('?expand[]=taskStatuses'), ['taskStatuses']);
    assert.deepEqual(await keys('?expand[]=taskStatuses&expand[]=members'), ['members', 'taskStatuses']);
    const bad = problem(await f.owner.get(`/v1/teams/${id}?expand=owner`), 400, 'validation_failed');
    assert.deepEqual(bad.errors, [
      { path: '/query/expand', message: 'must be one of: all, none, members, taskStatuses, taskLabels' },
    ]);
    problem(await f.owner.get(`/v1/teams/${id}?expand=none,members`), 400, 'validation_failed');
  });

  test('offset with cursor is 400, and offset must be a non-negative integer', async () => {
    await f.owner.post('/v1/collections', { name: 'C1' });
    await f.owner.post('/v1/collections', { name: 'C2' });
    const first = await f.owner.get('/v1/collections?limit=1');
    assert.equal(first.body.hasMore, true);
    const both = problem(
      await f.owner.get(`/v1/collections?offset=1&cursor=${first.body.nextCursor}`),
      400,
      'validation_failed',
    );
    assert.equal(both.errors[0].path, '/query/offset');
    problem(await f.owner.get('/v1/collections?offset=-1'), 400, 'validation_failed');
    const skipped = await f.owner.get('/v1/collections?offset=1&limit=1');
    assert.equal(skipped.status, 200);
    assert.equal(skipped.body.data[0].name, 'C2');
  });

  test('a tampered cursor, or one from another query, is 400 invalid_cursor', async () => {
    for (const name of ['Cursor A', 'Cursor B', 'Cursor C']) await f.owner.post('/v1/teams', { name });
    const page = await f.owner.get('/v1/teams/search?name=cursor&limit=1');
    const cursor: string = page.body.nextCursor;
    assert.equal(typeof cursor, 'string');
    assert.equal((await f.owner.get(`/v1/teams/search?name=cursor&limit=1&cursor=${cursor}`)).status, 200);

    const raw = Buffer.from(cursor, 'base64url');
    raw[20] = raw[20]! ^ 1;
    const forged = raw.toString('base64url');
    problem(await f.owner.get(`/v1/teams/search?name=cursor&cursor=${forged}`), 400, 'invalid_cursor');
    problem(await f.owner.get('/v1/teams/search?name=cursor&cursor=garbage'), 400, 'invalid_cursor');
    problem(await f.owner.get(`/v1/teams/search?name=other&cursor=${cursor}`), 400, 'invalid_cursor');
    problem(await f.owner.get(`/v1/collections?cursor=${cursor}`), 400, 'invalid_cursor');
    const other = await f.newWorkspace('Cursorless');
    problem(await other.owner.get(`/v1/teams/search?name=cursor&cursor=${cursor}`), 400, 'invalid_cursor');
  });
});

describe('request ids', () => {
  test('every response carries X-Request-Id; a sane incoming one is echoed', async () => {
    const generated = await f.owner.get('/v1/me');
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const echoed = await f.owner.get('/v1/me', { 'x-request-id': 'trace-123' });
    assert.equal(echoed.headers['x-request-id'], 'trace-123');
    const error = await f.anonymous.get('/v1/me', { 'x-request-id': 'trace-456' });
    assert.equal(error.headers['x-request-id'], 'trace-456');
    assert.equal(error.body.requestId, 'trace-456');
    const unsafe = await f.owner.get('/v1/me', { 'x-request-id': 'bad id\twith spaces' });
    assert.notEqual(unsafe.headers['x-request-id'], 'bad id\twith spaces');
    // Answers no route gives: a path nothing serves, and a URL the router cannot decode.
    const missing = await f.owner.get('/v1/nothing-here', { 'x-request-id': 'trace-404' });
    assert.deepEqual([missing.status, missing.headers['x-request-id']], [404, 'trace-404']);
    const malformed = await f.owner.get('/v1/tasks/%C0%80', { 'x-request-id': 'trace-400' });
    assert.deepEqual([malformed.status, malformed.headers['x-request-id']], [400, 'trace-400']);
  });
});
