// Either credential on every /v1 route (http/auth.ts): the API token as before, or the session cookie
// with the same permissions; and the origin rule for cookie writes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientWith, problem, setUserPassword, setup, signInClient } from '../test/helpers.ts';

const ORIGIN = 'http://cairn.test';
const PASSWORD = 'kettle on the hob 9';

describe('the session cookie beside the API token', async () => {
  const f = await setup();
  const member = await f.newUser('member', 'Mia Member');
  await setUserPassword(f.database, f.ws.workspace.id, member.id, PASSWORD);
  const { cookie } = await signInClient(f.app, member.email, PASSWORD);
  const withCookie = (headers: Record<string, string> = {}) =>
    clientWith(f.app, { cookie: `cairn_session=${cookie}`, ...headers });

  test('the cookie carries the same permissions as a token of the same user', async () => {
    const vault = (await f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private' })).body.id;
    const open = (await f.owner.post('/v1/teams', { name: 'Open' })).body.id;
    for (const api of [member.api, withCookie({ origin: ORIGIN })]) {
      problem(await api.get(`/v1/teams/${vault}`), 404, 'not_found');
      assert.equal((await api.get(`/v1/teams/${open}`)).status, 200);
      problem(await api.post('/v1/users', { name: 'X', email: 'x@acme.test' }), 403, 'forbidden');
      const me = await api.get('/v1/me');
      assert.equal(me.body.id, member.id);
    }
  });

  test('cookie writes from another origin are 403, whatever the route; same-origin ones go through', async () => {
    const refused = [
      await withCookie({ origin: 'https://evil.example' }).post('/v1/teams', { name: 'Evil' }),
      await withCookie({ origin: 'http://cairn.test:8080' }).post('/v1/teams', { name: 'Evil' }),
      await withCookie({ origin: 'null' }).post('/v1/teams', { name: 'Evil' }),
      await withCookie({ 'sec-fetch-site': 'cross-site' }).post('/v1/teams', { name: 'Evil' }),
      await withCookie({ 'sec-fetch-site': 'same-site' }).post('/v1/teams', { name: 'Evil' }),
      await withCookie({ origin: 'https://evil.example' }).delete(
        '/v1/api-tokens/00000000-0000-4000-8000-000000000000',
      ),
      await withCookie({ origin: 'https://evil.example' }).post('/v1/auth/password', {
        currentPassword: PASSWORD,
        newPassword: 'stolen away 12345',
      }),
    ];
    for (const res of refused) {
      const body = problem(res, 403, 'forbidden');
      assert.equal(
        body.detail,
        "A change made with the session cookie must come from Cairn's own pages (origin http://cairn.test, CAIRN_PUBLIC_URL); this request came from another origin. Programs send an API token instead",
      );
    }
    const teams = await member.api.get('/v1/teams/search?name=Evil');
    assert.equal(teams.body.total, 0, 'nothing was made');
    // Its own origin (either header), or no browser header at all (not a page): accepted.
    const made = [
      await withCookie({ origin: ORIGIN }).post('/v1/teams', { name: 'Same origin' }),
      await withCookie({ origin: 'HTTP://CAIRN.TEST' }).post('/v1/teams', { name: 'Same origin, loud' }),
      await withCookie({ 'sec-fetch-site': 'same-origin' }).post('/v1/teams', { name: 'Fetch metadata' }),
      await withCookie({ origin: ORIGIN, 'sec-fetch-site': 'cross-site' }).post('/v1/teams', {
        name: 'Origin wins',
      }),
      await withCookie().post('/v1/teams', { name: 'No browser' }),
    ];
    assert.deepEqual(
      made.map((r) => r.status),
      [201, 201, 201, 201, 201],
    );
    // Reads are not held to it.
    assert.equal((await withCookie({ origin: 'https://evil.example' }).get('/v1/me')).status, 200);
  });

  test('bearer writes are not held to the origin rule', async () => {
    const res = await member.api.post(
      '/v1/teams',
      { name: 'Token team' },
      { origin: 'https://elsewhere.example' },
    );
    assert.equal(res.status, 201);
  });

  test('sign-in and sign-out from another origin are 403 (no one is signed in or out by another page)', async () => {
    const signIn = await f.anonymous.post(
      '/v1/auth/sign-in',
      { email: member.email, password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    problem(signIn, 403, 'forbidden');
    assert.equal(signIn.headers['set-cookie'], undefined);
    problem(await withCookie({ 'sec-fetch-site': 'cross-site' }).post('/v1/auth/sign-out'), 403, 'forbidden');
    assert.equal((await withCookie().get('/v1/me')).status, 200, 'still signed in');
  });

  test('a bearer header wins over the cookie: a bad token is 401 even with a good cookie', async () => {
    const both = withCookie({ authorization: `Bearer ${f.ws.token}` });
    assert.equal((await both.get('/v1/me')).body.id, f.ws.user.id, "the token's user, not the cookie's");
    const bad = withCookie({ authorization: 'Bearer cairn_wrong' });
    const body = problem(await bad.get('/v1/me'), 401, 'unauthenticated');
    assert.equal(body.detail, 'The API token is not valid');
  });

  test('without any credential the 401 says how to get one; a cookie that is no session is 401', async () => {
    const none = problem(await f.anonymous.get('/v1/me'), 401, 'unauthenticated');
    assert.equal(
      none.detail,
      'Send an API token as Authorization: Bearer <token>, or sign in (POST /v1/auth/sign-in) and send its cookie',
    );
    const junk = await clientWith(f.app, { cookie: 'cairn_session=cairn_s_junk' }).get('/v1/me');
    problem(junk, 401, 'unauthenticated');
    assert.equal(junk.headers['www-authenticate'], 'Bearer realm="cairn"');
  });

  test('the document has the cookie scheme beside the bearer one; sign-in and sign-out need neither', async () => {
    const doc = (await f.anonymous.get('/openapi.json')).body;
    assert.deepEqual(doc.components.securitySchemes, {
      bearer: { type: 'http', scheme: 'bearer' },
      cookie: { type: 'apiKey', in: 'cookie', name: 'cairn_session' },
    });
    assert.deepEqual(doc.security, [{ bearer: [] }, { cookie: [] }]);
    assert.deepEqual(doc.paths['/v1/auth/sign-in'].post.security, []);
    assert.deepEqual(doc.paths['/v1/auth/sign-out'].post.security, []);
    assert.equal(doc.paths['/v1/auth/sessions'].get.security, undefined);
  });

  test('If-Match does not apply to sessions and passwords: 400', async () => {
    const res = await withCookie({ 'if-match': '*' }).post('/v1/auth/sign-out');
    const body = problem(res, 400, 'validation_failed');
    assert.deepEqual(body.errors, [
      { path: '/headers/if-match', message: 'does not apply to this operation' },
    ]);
  });
});
