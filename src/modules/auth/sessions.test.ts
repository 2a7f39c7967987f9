import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { advanceClock, now } from '../../clock.ts';
import {
  clientWith,
  ISO_PATTERN,
  problem,
  type Response,
  sessionCookieOf,
  setUserPassword,
  setup,
  signInClient,
  UUID_PATTERN,
} from '../../test/helpers.ts';
import { CURRENT, hashPassword } from './passwords.ts';

const DAY = 24 * 60 * 60 * 1000;
const ORIGIN = 'http://cairn.test';
const PASSWORD = 'plum tree at dawn 42';

/** The cairn_session Set-Cookie of an answer, as its attributes. */
function cookieAttributes(res: Response): Record<string, string | true> {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('cairn_session='));
  assert.ok(header, `no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  const [, ...parts] = header.split(/; */);
  return Object.fromEntries(
    parts.map((p) => {
      const [k, v] = p.split('=');
      return [k!.toLowerCase(), v ?? true];
    }),
  );
}

describe('sign-in and sessions', async () => {
  const f = await setup();
  await setUserPassword(f.database, f.ws.workspace.id, f.ws.user.id, PASSWORD);
  const signIn = (body: unknown, headers: Record<string, string> = {}) =>
    f.anonymous.post('/v1/auth/sign-in', body, { origin: ORIGIN, ...headers });

  test('signs in: 200 {user, workspace}, and the cookie is HttpOnly, SameSite=Lax, Path=/, with Expires, not Secure on http', async () => {
    const res = await signIn(
      { email: ' Olive@ACME.test ', password: PASSWORD },
      { 'user-agent': 'Test/1.0' },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      user: { ...f.ws.user, lastAccessedAt: res.body.user.lastAccessedAt },
      workspace: { id: f.ws.workspace.id, name: 'Acme' },
    });
    assert.match(res.body.user.lastAccessedAt, ISO_PATTERN);
    const attributes = cookieAttributes(res);
    const expires = Date.parse(String(attributes.expires));
    assert.ok(Math.abs(expires - (Date.now() + 30 * DAY)) < 60_000, String(attributes.expires));
    assert.deepEqual(
      { ...attributes, expires: 'checked' },
      { httponly: true, samesite: 'Lax', path: '/', expires: 'checked' },
    );
    assert.match(sessionCookieOf(res)!, /^cairn_s_[A-Za-z0-9_-]{43}$/);
    // The cookie stands for the user, as a token would.
    const me = await clientWith(f.app, { cookie: `cairn_session=${sessionCookieOf(res)}` }).get('/v1/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.id, f.ws.user.id);
    assert.equal(me.headers['set-cookie'], undefined, 'a use the same day writes nothing, sends no cookie');
  });

  test('a wrong password and an unknown email get the same 401 invalid_credentials', async () => {
    const answers = [
      await signIn({ email: 'olive@acme.test', password: 'not the password' }),
      await signIn({ email: 'nobody@acme.test', password: PASSWORD }),
      // The right password, in a workspace where the email is no one's.
      await signIn({
        email: 'olive@acme.test',
        password: PASSWORD,
        workspaceId: (await f.newWorkspace('Z')).ws.workspace.id,
      }),
    ];
    const shapes = answers.map((res) => {
      const body = problem(res, 401, 'invalid_credentials');
      assert.equal(sessionCookieOf(res), undefined);
      assert.equal(res.headers['www-authenticate'], undefined);
      const { requestId: _, ...rest } = body;
      return rest;
    });
    assert.deepEqual(shapes[0], {
      type: 'urn:cairn:problem:invalid_credentials',
      title: 'Invalid credentials',
      status: 401,
      detail: 'The email or the password is wrong',
      code: 'invalid_credentials',
    });
    assert.deepEqual(shapes[1], shapes[0]);
    assert.deepEqual(shapes[2], shapes[0]);
  });

  test('bad bodies are 400 and sign no one in', async () => {
    for (const body of [
      { email: 'olive@acme.test' },
      { email: 'olive@acme.test', password: PASSWORD, extra: 1 },
    ]) {
      problem(await signIn(body), 400, 'validation_failed');
    }
    problem(
      await signIn({ email: 'olive@acme.test', password: PASSWORD, workspaceId: 'nope' }),
      400,
      'validation_failed',
    );
  });

  test('sign-out ends the session and clears the cookie; the cookie is then 401', async () => {
    const { api, cookie } = await signInClient(f.app, 'olive@acme.test', PASSWORD);
    const out = await api.post('/v1/auth/sign-out');
    assert.equal(out.status, 204);
    assert.equal(out.body, '');
    assert.equal(sessionCookieOf(out), '');
    assert.equal(cookieAttributes(out).expires, 'Thu, 01 Jan 1970 00:00:00 GMT');
    const after = await clientWith(f.app, { cookie: `cairn_session=${cookie}` }).get('/v1/me');
    const body = problem(after, 401, 'unauthenticated');
    assert.equal(body.detail, 'The session has ended (signed out, expired or revoked); sign in again');
    // Without a session, or a second time: still 204.
    assert.equal((await f.anonymous.post('/v1/auth/sign-out', undefined, { origin: ORIGIN })).status, 204);
    assert.equal((await api.post('/v1/auth/sign-out')).status, 204);
  });

  test('a new sign-in from a browser that holds a session ends that session', async () => {
    const first = await signInClient(f.app, 'olive@acme.test', PASSWORD);
    const second = await signInClient(f.app, 'olive@acme.test', PASSWORD, {
      cookie: `cairn_session=${first.cookie}`,
    });
    problem(
      await clientWith(f.app, { cookie: `cairn_session=${first.cookie}` }).get('/v1/me'),
      401,
      'unauthenticated',
    );
    assert.equal(
      (await clientWith(f.app, { cookie: `cairn_session=${second.cookie}` }).get('/v1/me')).status,
      200,
    );
  });

  test("lists the caller's own sessions; ends one, this one, or someone else's (404)", async () => {
    const { id: userId, email } = await f.newUser('member', 'Sam Sessions');
    await setUserPassword(f.database, f.ws.workspace.id, userId, PASSWORD);
    const laptop = await signInClient(f.app, email, PASSWORD, { 'user-agent': 'Laptop' });
    const phone = await signInClient(f.app, email, PASSWORD, { 'user-agent': 'Phone' });
    const listed = await phone.api.get('/v1/auth/sessions');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((s: { userAgent: string; current: boolean }) => [s.userAgent, s.current]),
      [
        ['Phone', true],
        ['Laptop', false],
      ],
    );
    const [mine] = listed.body.data;
    assert.match(mine.id, UUID_PATTERN);
    assert.deepEqual(Object.keys(mine), [
      'id',
      'current',
      'createdAt',
      'lastUsedAt',
      'expiresAt',
      'userAgent',
      'address',
    ]);
    assert.equal(mine.address, '127.0.0.1');
    assert.equal(mine.lastUsedAt, mine.createdAt);
    assert.equal(Date.parse(mine.expiresAt) - Date.parse(mine.lastUsedAt), 14 * DAY);
    // The owner's list does not hold them; the owner cannot end them.
    const ownerList = await f.owner.get('/v1/auth/sessions');
    assert.ok(
      ownerList.body.data.every((s: { id: string; current: boolean }) => s.id !== mine.id && !s.current),
    );
    const missing = await f.owner.delete('/v1/auth/sessions/00000000-0000-4000-8000-000000000000');
    const theirs = await f.owner.delete(`/v1/auth/sessions/${mine.id}`);
    problem(theirs, 404, 'not_found');
    assert.deepEqual({ ...theirs.body, requestId: 0 }, { ...missing.body, requestId: 0 });
    problem(await f.owner.delete('/v1/auth/sessions/not-a-uuid'), 404, 'not_found');
    // The laptop's session, from the phone: the laptop is signed out.
    const laptopId = listed.body.data[1].id;
    const ended = await phone.api.delete(`/v1/auth/sessions/${laptopId}`);
    assert.equal(ended.status, 204);
    assert.equal(sessionCookieOf(ended), undefined, "another session's end leaves this cookie alone");
    problem(await laptop.api.get('/v1/me'), 401, 'unauthenticated');
    problem(await phone.api.delete(`/v1/auth/sessions/${laptopId}`), 404, 'not_found');
    // This session: its cookie is cleared too.
    const self = await phone.api.delete(`/v1/auth/sessions/${mine.id}`);
    assert.equal(self.status, 204);
    assert.equal(sessionCookieOf(self), '');
    problem(await phone.api.get('/v1/me'), 401, 'unauthenticated');
  });

  test('a password change ends every other session and keeps this one; the new password signs in', async () => {
    const { id: userId, email } = await f.newUser('member', 'Pat Password');
    await setUserPassword(f.database, f.ws.workspace.id, userId, PASSWORD);
    const here = await signInClient(f.app, email, PASSWORD);
    const elsewhere = await signInClient(f.app, email, PASSWORD);
    const change = (currentPassword: string, newPassword: string) =>
      here.api.post('/v1/auth/password', { currentPassword, newPassword });
    const common = problem(await change(PASSWORD, 'password123'), 400, 'validation_failed');
    assert.deepEqual(common.errors, [
      { path: '/body/newPassword', message: 'is one of the most common passwords; choose another' },
    ]);
    const short = problem(await change(PASSWORD, 'short'), 400, 'validation_failed');
    assert.deepEqual(short.errors, [{ path: '/body/newPassword', message: 'must be at least 8 characters' }]);
    const wrong = problem(await change('not it at all', 'a brand new phrase 7'), 400, 'validation_failed');
    assert.deepEqual(wrong.errors, [
      { path: '/body/currentPassword', message: 'is not your current password' },
    ]);
    assert.equal((await elsewhere.api.get('/v1/me')).status, 200, 'refusals end nothing');
    const done = await change(PASSWORD, 'a brand new phrase 7');
    assert.equal(done.status, 204);
    assert.equal((await here.api.get('/v1/me')).status, 200);
    problem(await elsewhere.api.get('/v1/me'), 401, 'unauthenticated');
    problem(await signIn({ email, password: PASSWORD }), 401, 'invalid_credentials');
    assert.equal((await signIn({ email, password: 'a brand new phrase 7' })).status, 200);
  });

  test('with an API token a password change ends every session; a user without a password is told so', async () => {
    const { id: userId, email, api } = await f.newUser('member', 'Toby Token');
    const none = problem(
      await api.post('/v1/auth/password', {
        currentPassword: 'anything at all',
        newPassword: 'a brand new phrase 7',
      }),
      400,
      'validation_failed',
    );
    assert.equal(none.errors[0].path, '/body/currentPassword');
    await setUserPassword(f.database, f.ws.workspace.id, userId, PASSWORD);
    const browser = await signInClient(f.app, email, PASSWORD);
    const sessions = await api.get('/v1/auth/sessions');
    assert.deepEqual(
      sessions.body.data.map((s: { current: boolean }) => s.current),
      [false],
      'with a token no session is current',
    );
    const done = await api.post('/v1/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new phrase 7',
    });
    assert.equal(done.status, 204);
    problem(await browser.api.get('/v1/me'), 401, 'unauthenticated');
    assert.equal((await api.get('/v1/me')).status, 200, 'API tokens are not sessions: they stay');
  });

  test('a hash made with older parameters is replaced by one with today’s at sign-in', async () => {
    const { id: userId, email } = await f.newUser('member', 'Olga Oldhash');
    const old = await hashPassword(PASSWORD, { memory: 8192, passes: 1, parallelism: 1 });
    await f.database.db.updateTable('users').set({ password_hash: old }).where('id', '=', userId).execute();
    assert.equal((await signIn({ email, password: PASSWORD })).status, 200);
    const { password_hash } = await f.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    assert.notEqual(password_hash, old);
    assert.match(
      String(password_hash),
      new RegExp(`^\\$argon2id\\$v=19\\$m=${CURRENT.memory},t=${CURRENT.passes},p=${CURRENT.parallelism}\\$`),
    );
    assert.equal((await signIn({ email, password: PASSWORD })).status, 200, 'and it signs in as before');
  });

  test('signed in, a person creates, lists and revokes their own API tokens', async () => {
    const { api } = await signInClient(f.app, 'olive@acme.test', PASSWORD);
    const made = await api.post('/v1/api-tokens', { name: 'From the browser' });
    assert.equal(made.status, 201);
    assert.equal(made.body.userId, f.ws.user.id);
    const listed = await api.get('/v1/api-tokens');
    assert.ok(listed.body.data.some((t: { id: string }) => t.id === made.body.id));
    assert.equal(
      (await clientWith(f.app, { authorization: `Bearer ${made.body.token}` }).get('/v1/me')).status,
      200,
    );
    assert.equal((await api.delete(`/v1/api-tokens/${made.body.id}`)).status, 204);
    problem(
      await clientWith(f.app, { authorization: `Bearer ${made.body.token}` }).get('/v1/me'),
      401,
      'unauthenticated',
    );
  });

  test('one email in several workspaces: the password chooses, workspaceId decides', async () => {
    const email = 'twin@both.test';
    const made = async (name: string) => {
      const w = await f.newWorkspace(name);
      const user = await w.owner.post('/v1/users', { name: 'Twin', email, role: 'member' });
      return { ws: w.ws.workspace, userId: user.body.id as string };
    };
    const north = await made('North');
    const south = await made('South');
    await setUserPassword(f.database, north.ws.id, north.userId, 'north star 1234');
    await setUserPassword(f.database, south.ws.id, south.userId, 'south wind 5678');
    assert.equal((await signIn({ email, password: 'south wind 5678' })).body.workspace.id, south.ws.id);
    assert.equal((await signIn({ email, password: 'north star 1234' })).body.workspace.id, north.ws.id);
    // The same password in both: the most recently used (North, just now), unless workspaceId says.
    await setUserPassword(f.database, south.ws.id, south.userId, 'north star 1234');
    assert.equal((await signIn({ email, password: 'north star 1234' })).body.workspace.id, north.ws.id);
    const chosen = await signIn({ email, password: 'north star 1234', workspaceId: south.ws.id });
    assert.equal(chosen.body.workspace.id, south.ws.id);
    assert.equal(chosen.body.user.id, south.userId);
  });
});

describe('session expiry, by the clock', async () => {
  const f = await setup();
  await setUserPassword(f.database, f.ws.workspace.id, f.ws.user.id, PASSWORD);

  test('a use a day later renews the session (a new Expires); used every 13 days it outlives 30', async () => {
    const { api } = await signInClient(f.app, 'olive@acme.test', PASSWORD);
    const first = (await api.get('/v1/auth/sessions')).body.data[0];
    for (let day = 13; day <= 52; day += 13) {
      advanceClock(13 * DAY);
      const res = await api.get('/v1/me');
      assert.equal(res.status, 200, `day ${day}`);
      const expires = Date.parse(String(cookieAttributes(res).expires));
      const expected = Date.parse(first.createdAt) + (day + 30) * DAY;
      assert.ok(
        Math.abs(expires - expected) < 60_000,
        `day ${day}: Expires ${new Date(expires).toISOString()}`,
      );
      // Written once: the next request the same day sends no cookie.
      assert.equal((await api.get('/v1/me')).headers['set-cookie'], undefined);
    }
    const now = (await api.get('/v1/auth/sessions')).body.data[0];
    assert.equal(now.id, first.id);
    assert.equal(Date.parse(now.lastUsedAt) - Date.parse(first.lastUsedAt) >= 52 * DAY, true);
  });

  const currentId = async (api: { get(url: string): Promise<Response> }) =>
    (await api.get('/v1/auth/sessions')).body.data.find((s: { current: boolean }) => s.current).id as string;

  test('unused for 14 days, a session has ended', async () => {
    const { api } = await signInClient(f.app, 'olive@acme.test', PASSWORD);
    const id = await currentId(api);
    const listed = async () =>
      (await f.owner.get('/v1/auth/sessions')).body.data.map((s: { id: string }) => s.id);
    advanceClock(13 * DAY + 23 * 3600_000);
    assert.ok((await listed()).includes(id));
    advanceClock(3600_000);
    assert.ok(!(await listed()).includes(id), 'no longer listed');
    problem(await api.get('/v1/me'), 401, 'unauthenticated');
  });

  test('a session past its expiry has ended, however recently used', async () => {
    const { api } = await signInClient(f.app, 'olive@acme.test', PASSWORD);
    const id = await currentId(api);
    // The idle limit (14 days) always ends a session left alone before its 30 days do: set a shorter
    // expiry, as a lowered lifetime would leave it, and pass it.
    const soon = new Date(Date.parse(now()) + 3600_000).toISOString();
    await f.database.db.updateTable('sessions').set({ expires_at: soon }).where('id', '=', id).execute();
    assert.equal((await api.get('/v1/me')).status, 200);
    advanceClock(2 * 3600_000);
    problem(await api.get('/v1/me'), 401, 'unauthenticated');
  });
});

describe('the session cookie on https', async () => {
  const f = await setup(undefined, { CAIRN_PUBLIC_URL: 'https://cairn.example' });
  await setUserPassword(f.database, f.ws.workspace.id, f.ws.user.id, PASSWORD);

  test('is Secure', async () => {
    const res = await f.anonymous.post(
      '/v1/auth/sign-in',
      { email: 'olive@acme.test', password: PASSWORD },
      { origin: 'https://cairn.example' },
    );
    assert.equal(res.status, 200);
    assert.equal(cookieAttributes(res).secure, true);
  });
});
