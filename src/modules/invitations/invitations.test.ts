// Invitations through HTTP, without SMTP (the link is in the answer): create, list, revoke, who may,
// and accepting a link (signed in, the user made with the invited role), refused when used, revoked,
// replaced or expired, and once only when accepted twice at the same moment.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { advanceClock } from '../../clock.ts';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();
const admin = await f.newUser('admin', 'Ada Admin');
const member = await f.newUser('member', 'Milo Member');
const guest = await f.newUser('guest', 'Gia Guest');

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const tokenOf = (url: string) => url.split('/').pop()!;
const DAY_MS = 24 * 60 * 60 * 1000;

async function invite(email: string, role = 'member', name?: string) {
  const res = await f.owner.post('/v1/invitations', { email, role, ...(name ? { name } : {}) });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

function accept(token: string, name = 'New Person', password = 'correct horse battery staple') {
  return f.anonymous.post('/v1/auth/accept-invitation', { token, name, password });
}

describe('POST /v1/invitations', () => {
  test('an owner invites: 201 with the one-time link; only its hash is stored', async () => {
    const res = await f.owner.post('/v1/invitations', { email: 'Ben@Acme.TEST', role: 'admin', name: 'Ben' });
    assert.equal(res.status, 201);
    const { id, createdAt, expiresAt, url, ...rest } = res.body;
    assert.match(id, UUID_PATTERN);
    assert.match(createdAt, ISO_PATTERN);
    assert.equal(Date.parse(expiresAt) - Date.parse(createdAt), 7 * DAY_MS);
    assert.match(url, /^http:\/\/cairn\.test\/invite\/[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(rest, {
      email: 'ben@acme.test',
      role: 'admin',
      name: 'Ben',
      state: 'pending',
      invitedById: f.ws.user.id,
      acceptedAt: null,
      acceptedUserId: null,
      revokedAt: null,
      emailed: false,
    });
    const row = await f.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.token_hash, sha256(tokenOf(url)));
    assert.ok(!JSON.stringify(row).includes(tokenOf(url)));
  });

  test('admins, members and guests may not invite, list or revoke (403)', async () => {
    const mine = await invite('owned@acme.test');
    for (const who of [admin, member, guest]) {
      problem(
        await who.api.post('/v1/invitations', { email: 'x@acme.test', role: 'member' }),
        403,
        'forbidden',
      );
      problem(await who.api.get('/v1/invitations'), 403, 'forbidden');
      problem(await who.api.delete(`/v1/invitations/${mine.id}`), 403, 'forbidden');
    }
    problem(await f.anonymous.get('/v1/invitations'), 401, 'unauthenticated');
  });

  test("an email that is already a member's is 409, naming it", async () => {
    const res = problem(
      await f.owner.post('/v1/invitations', { email: 'OLIVE@acme.test', role: 'member' }),
      409,
      'conflict',
    );
    assert.equal(res.detail, 'olive@acme.test is already a member of this workspace');
  });

  test('bad input is 400 and makes nothing', async () => {
    const before = await f.database.db.selectFrom('invitations').select('id').execute();
    problem(
      await f.owner.post('/v1/invitations', { email: 'nope', role: 'member' }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post('/v1/invitations', { email: 'a@b.test', role: 'boss' }),
      400,
      'validation_failed',
    );
    problem(await f.owner.post('/v1/invitations', { email: 'a@b.test' }), 400, 'validation_failed');
    problem(
      await f.owner.post('/v1/invitations', { email: 'a@b.test', role: 'member', url: 'x' }),
      400,
      'validation_failed',
    );
    assert.equal(
      (await f.database.db.selectFrom('invitations').select('id').execute()).length,
      before.length,
    );
  });

  test('inviting an email again replaces its open invitation: the older link stops working', async () => {
    const first = await invite('twice@acme.test', 'guest');
    const second = await invite('Twice@acme.test', 'member');
    assert.notEqual(second.id, first.id);
    const list = (await f.owner.get('/v1/invitations?limit=100')).body.data;
    const old = list.find((i: { id: string }) => i.id === first.id);
    assert.equal(old.state, 'revoked');
    assert.equal(old.revokedAt, second.createdAt);
    assert.equal(list.find((i: { id: string }) => i.id === second.id).state, 'pending');
    const refused = problem(await accept(tokenOf(first.url)), 400, 'invalid_token');
    assert.match(refused.detail, /revoked, or replaced by a newer one/);
    const joined = await accept(tokenOf(second.url), 'Twice');
    assert.equal(joined.status, 200);
    assert.equal(joined.body.user.role, 'member');
  });
});

describe('GET /v1/invitations', () => {
  test('newest first, paginated, filtered by state; never a link or a token', async () => {
    const a = await invite('list-a@acme.test');
    const b = await invite('list-b@acme.test');
    const first = await f.owner.get('/v1/invitations?limit=1');
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.data.map((i: { id: string }) => i.id),
      [b.id],
    );
    assert.equal(first.body.hasMore, true);
    const next = await f.owner.get(`/v1/invitations?limit=1&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      next.body.data.map((i: { id: string }) => i.id),
      [a.id],
    );
    const { url: _url, emailed: _emailed, ...listed } = b;
    assert.deepEqual(first.body.data[0], listed);
    const text = JSON.stringify((await f.owner.get('/v1/invitations?limit=100')).body);
    assert.ok(!text.includes('/invite/') && !text.includes('token'), text);
    // A cursor is bound to its filter.
    problem(
      await f.owner.get(`/v1/invitations?limit=1&state=pending&cursor=${first.body.nextCursor}`),
      400,
      'invalid_cursor',
    );
    const pending = (await f.owner.get('/v1/invitations?state=pending&limit=100')).body.data;
    assert.ok(pending.length >= 2);
    assert.ok(pending.every((i: { state: string }) => i.state === 'pending'));
    const accepted = (await f.owner.get('/v1/invitations?state=accepted&limit=100')).body.data;
    assert.ok(accepted.every((i: { state: string }) => i.state === 'accepted'));
    problem(await f.owner.get('/v1/invitations?state=lost'), 400, 'validation_failed');
  });
});

describe('DELETE /v1/invitations/{id}', () => {
  test('revokes: 204, the link is refused, and again is 204', async () => {
    const inv = await invite('revoke@acme.test');
    const res = await f.owner.delete(`/v1/invitations/${inv.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.body, '');
    const listed = (await f.owner.get('/v1/invitations?state=revoked&limit=100')).body.data;
    assert.match(listed.find((i: { id: string }) => i.id === inv.id).revokedAt, ISO_PATTERN);
    const refused = problem(await accept(tokenOf(inv.url)), 400, 'invalid_token');
    assert.equal(
      refused.detail,
      'This invitation was revoked, or replaced by a newer one; ask an owner for a new link',
    );
    assert.equal((await f.owner.delete(`/v1/invitations/${inv.id}`)).status, 204);
  });

  test("a missing id and another workspace's invitation are the same 404", async () => {
    const other = await f.newWorkspace('Elsewhere');
    const theirs = await other.owner.post('/v1/invitations', { email: 'them@else.test', role: 'member' });
    assert.equal(theirs.status, 201);
    const missing = problem(
      await f.owner.delete('/v1/invitations/00000000-0000-4000-8000-000000000001'),
      404,
      'not_found',
    );
    const foreign = problem(await f.owner.delete(`/v1/invitations/${theirs.body.id}`), 404, 'not_found');
    assert.deepEqual({ ...foreign, requestId: '' }, { ...missing, requestId: '' });
    problem(await f.owner.delete('/v1/invitations/nope'), 404, 'not_found');
    // Theirs still works.
    assert.equal((await accept(tokenOf(theirs.body.url), 'Them')).status, 200);
    assert.ok(
      !(await f.owner.get('/v1/invitations?limit=100')).body.data.some(
        (i: { id: string }) => i.id === theirs.body.id,
      ),
    );
  });

  test('an accepted invitation is 409: the person is a member now', async () => {
    const inv = await invite('accepted-then-revoked@acme.test');
    assert.equal((await accept(tokenOf(inv.url))).status, 200);
    problem(await f.owner.delete(`/v1/invitations/${inv.id}`), 409, 'conflict');
  });
});

describe('POST /v1/auth/accept-invitation', () => {
  test('makes the user with the invited role and signs them in (cookie and session row)', async () => {
    const inv = await invite('cara@acme.test', 'guest', 'Cara');
    const res = await f.anonymous.post(
      '/v1/auth/accept-invitation',
      { token: tokenOf(inv.url), name: '  Cara Chosen ', password: 'a long and unusual passphrase' },
      { 'user-agent': 'TestBrowser/1.0' },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { user, workspace } = res.body;
    assert.deepEqual(Object.keys(res.body).sort(), ['user', 'workspace']);
    assert.deepEqual(workspace, { id: f.ws.workspace.id, name: 'Acme' });
    assert.match(user.id, UUID_PATTERN);
    assert.deepEqual(
      { name: user.name, email: user.email, role: user.role, lastAccessedAt: user.lastAccessedAt },
      { name: 'Cara Chosen', email: 'cara@acme.test', role: 'guest', lastAccessedAt: null },
    );
    // The user is the directory's, as POST /v1/users would have made them.
    const listed = await f.owner.get(`/v1/users/${user.id}`);
    assert.deepEqual(listed.body, user);

    const cookie = String(res.headers['set-cookie']);
    const secret = /^cairn_session=([^;]+);/.exec(cookie)?.[1];
    assert.ok(secret, cookie);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.match(cookie, /; Path=\//);
    assert.doesNotMatch(cookie, /Secure/, 'http public URL: no Secure');
    const sessions = await f.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.token_hash, sha256(decodeURIComponent(secret)));
    assert.equal(sessions[0]!.user_agent, 'TestBrowser/1.0');
    assert.equal(sessions[0]!.workspace_id, f.ws.workspace.id);
    const stored = await f.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.match(String(stored.password_hash), /^\$argon2id\$v=19\$/);

    const after = (await f.owner.get('/v1/invitations?state=accepted&limit=100')).body.data;
    const done = after.find((i: { id: string }) => i.id === inv.id);
    assert.equal(done.acceptedUserId, user.id);
    assert.match(done.acceptedAt, ISO_PATTERN);

    // Used once: a second accept is refused and makes nobody.
    const again = problem(await accept(tokenOf(inv.url), 'Cara Again'), 400, 'invalid_token');
    assert.equal(again.detail, 'This invitation was already accepted; sign in instead');
    assert.deepEqual(again.errors, [{ path: '/body/token', message: 'is not a usable link' }]);
  });

  test('a weak password is 400 at /body/password and leaves the invitation pending', async () => {
    const inv = await invite('weak@acme.test');
    const short = problem(await accept(tokenOf(inv.url), 'Weak', 'short'), 400, 'validation_failed');
    assert.deepEqual(short.errors, [{ path: '/body/password', message: 'must be at least 8 characters' }]);
    const common = problem(await accept(tokenOf(inv.url), 'Weak', 'password123'), 400, 'validation_failed');
    assert.deepEqual(common.errors, [
      { path: '/body/password', message: 'is one of the most common passwords; choose another' },
    ]);
    problem(await accept(tokenOf(inv.url), '   '), 400, 'validation_failed');
    const listed = (await f.owner.get('/v1/invitations?limit=100')).body.data;
    assert.equal(listed.find((i: { id: string }) => i.id === inv.id).state, 'pending');
    assert.equal((await accept(tokenOf(inv.url), 'Weak No More')).status, 200);
  });

  test('an unknown or malformed token is 400 invalid_token', async () => {
    const res = problem(await accept('x'.repeat(43)), 400, 'invalid_token');
    assert.equal(res.detail, 'This invitation link is not valid; check that it was copied whole');
    problem(
      await f.anonymous.post('/v1/auth/accept-invitation', {
        token: '',
        name: 'X',
        password: 'long enough pass',
      }),
      400,
      'validation_failed',
    );
  });

  test('someone made a member meanwhile cannot accept their invitation (409)', async () => {
    const inv = await invite('meanwhile@acme.test');
    assert.equal(
      (await f.owner.post('/v1/users', { name: 'Meanwhile', email: 'meanwhile@acme.test' })).status,
      201,
    );
    problem(await accept(tokenOf(inv.url)), 409, 'conflict');
  });

  test('accepted by many at the same moment: one user, the others refused', async () => {
    const inv = await invite('race@acme.test', 'admin');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => accept(tokenOf(inv.url), `Racer ${i}`)),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 400, 400, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) problem(a, 400, 'invalid_token');
    const users = await f.database.db
      .selectFrom('users')
      .select('id')
      .where('workspace_id', '=', f.ws.workspace.id)
      .where('email', '=', 'race@acme.test')
      .execute();
    assert.equal(users.length, 1);
    const sessions = await f.database.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', users[0]!.id)
      .execute();
    assert.equal(sessions.length, 1);
  });

  // Last: the clock moves forward for the rest of the file.
  test('after 7 days the link has expired: refused, and listed as expired', async () => {
    const inv = await invite('late@acme.test');
    advanceClock(7 * DAY_MS + 1);
    const res = problem(await accept(tokenOf(inv.url)), 400, 'invalid_token');
    assert.equal(res.detail, 'This invitation has expired; ask an owner to invite you again');
    const expired = (await f.owner.get('/v1/invitations?state=expired&limit=100')).body.data;
    assert.ok(expired.some((i: { id: string }) => i.id === inv.id));
    // Inviting again gives a fresh link; the expired one is replaced (revoked).
    const fresh = await invite('late@acme.test');
    const listed = (await f.owner.get('/v1/invitations?limit=100')).body.data;
    assert.equal(listed.find((i: { id: string }) => i.id === inv.id).state, 'revoked');
    assert.equal((await accept(tokenOf(fresh.url), 'Late')).status, 200);
  });
});
