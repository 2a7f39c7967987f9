import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { client, ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();

describe('GET /v1/me', () => {
  test('returns the caller and its workspace', async () => {
    const res = await f.owner.get('/v1/me');
    assert.equal(res.status, 200);
    const { lastAccessedAt, createdAt, updatedAt, ...rest } = res.body;
    assert.deepEqual(rest, {
      id: f.ws.user.id,
      name: 'Olive Owner',
      email: 'olive@acme.test',
      role: 'owner',
      workspace: { id: f.ws.workspace.id, name: 'Acme' },
    });
    assert.match(lastAccessedAt, ISO_PATTERN);
    assert.match(createdAt, ISO_PATTERN);
    assert.match(updatedAt, ISO_PATTERN);
  });
});

describe('POST /v1/users', () => {
  test('an owner adds a member (201, email normalized, role defaults to member)', async () => {
    const res = await f.owner.post('/v1/users', { name: '  Mia Member ', email: 'Mia@Acme.TEST' });
    assert.equal(res.status, 201);
    assert.match(res.body.id, UUID_PATTERN);
    assert.deepEqual(
      {
        name: res.body.name,
        email: res.body.email,
        role: res.body.role,
        lastAccessedAt: res.body.lastAccessedAt,
      },
      { name: 'Mia Member', email: 'mia@acme.test', role: 'member', lastAccessedAt: null },
    );
  });

  test('the same email twice in a workspace is 409 conflict', async () => {
    problem(await f.owner.post('/v1/users', { name: 'Again', email: 'mia@acme.test' }), 409, 'conflict');
  });

  test('bad emails and roles are 400', async () => {
    problem(await f.owner.post('/v1/users', { name: 'X', email: 'not-an-email' }), 400, 'validation_failed');
    problem(
      await f.owner.post('/v1/users', { name: 'X', email: 'x@y.test', role: 'boss' }),
      400,
      'validation_failed',
    );
  });

  test('members and guests cannot add users; admins cannot add owners', async () => {
    const member = await f.newUser('member');
    const guest = await f.newUser('guest');
    const admin = await f.newUser('admin');
    problem(await member.api.post('/v1/users', { name: 'X', email: 'x1@acme.test' }), 403, 'forbidden');
    problem(await guest.api.post('/v1/users', { name: 'X', email: 'x2@acme.test' }), 403, 'forbidden');
    problem(
      await admin.api.post('/v1/users', { name: 'X', email: 'x3@acme.test', role: 'owner' }),
      403,
      'forbidden',
    );
    const ok = await admin.api.post('/v1/users', { name: 'X', email: 'x4@acme.test', role: 'admin' });
    assert.equal(ok.status, 201);
  });
});

describe('POST /v1/users with id (update)', () => {
  test('owners rename and re-role; people rename themselves but change nothing else', async () => {
    const member = await f.newUser('member', 'Old Name');
    const renamed = await f.owner.post('/v1/users', { id: member.id, name: 'New Name', role: 'admin' });
    assert.equal(renamed.status, 200);
    assert.deepEqual([renamed.body.name, renamed.body.role], ['New Name', 'admin']);
    const self = await member.api.post('/v1/users', { id: member.id, name: 'Self Named' });
    assert.equal(self.status, 200);
    assert.equal(self.body.name, 'Self Named');
    const plain = await f.newUser('member', 'Plain');
    problem(await plain.api.post('/v1/users', { id: plain.id, role: 'admin' }), 403, 'forbidden');
    problem(await plain.api.post('/v1/users', { id: member.id, name: 'Hijack' }), 403, 'forbidden');
    problem(await member.api.post('/v1/users', { id: f.ws.user.id, name: 'Demoted' }), 403, 'forbidden');
    problem(await f.owner.post('/v1/users', { id: member.id, email: 'olive@acme.test' }), 409, 'conflict');
    problem(
      await f.owner.post('/v1/users', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }),
      404,
      'not_found',
    );
    problem(await f.owner.post('/v1/users', { name: 'No email' }), 400, 'validation_failed');
  });
});

describe('two owners demoting each other at once', () => {
  test('one succeeds and the other is refused: the workspace keeps an owner', async () => {
    const { ws, owner } = await f.newWorkspace('Duel');
    const second = (await owner.post('/v1/users', { name: 'Second', email: 's@duel.test', role: 'owner' }))
      .body;
    const token = (await owner.post('/v1/api-tokens', { name: 't', userId: second.id })).body.token;
    const results = await Promise.all([
      owner.post('/v1/users', { id: second.id, role: 'member' }),
      client(f.app, token).post('/v1/users', { id: ws.user.id, role: 'member' }),
    ]);
    // The loser is 409 (last owner), or 403 when it authenticated after the winner had demoted it.
    const [won, lost] = results.map((r) => r.status).sort();
    assert.equal(won, 200);
    assert.ok(lost === 409 || lost === 403, `the other got ${lost}`);
    const roles = (await owner.get('/v1/users')).body.data.map((u: { role: string }) => u.role);
    assert.deepEqual(roles.sort(), ['member', 'owner']);
  });
});

describe('GET /v1/users', () => {
  test('lists the workspace oldest first with keyset pages', async () => {
    const all = await f.owner.get('/v1/users?limit=100');
    assert.equal(all.status, 200);
    assert.equal(all.body.hasMore, false);
    assert.equal(all.body.nextCursor, null);
    assert.equal(all.body.data[0].id, f.ws.user.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; nextCursor: string | null } } = await f.owner.get(
        `/v1/users?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((u) => u.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      all.body.data.map((u: { id: string }) => u.id),
    );
  });

  test('another workspace sees none of these users', async () => {
    const other = await f.newWorkspace('Globex');
    const res = await other.owner.get('/v1/users');
    assert.deepEqual(
      res.body.data.map((u: { email: string }) => u.email),
      ['owner@globex.test'],
    );
  });

  test('a guest sees only itself and people of its groups', async () => {
    const guest = await f.newUser('guest', 'Gus Guest');
    const mate = await f.newUser('member', 'Team Mate');
    const alone = await guest.api.get('/v1/users');
    assert.deepEqual(
      alone.body.data.map((u: { id: string }) => u.id),
      [guest.id],
    );
    await f.owner.post('/v1/teams', {
      name: 'Guest Room',
      members: [{ id: guest.id }, { id: mate.id }],
    });
    const shared = await guest.api.get('/v1/users');
    assert.deepEqual(
      shared.body.data.map((u: { id: string }) => u.id).sort(),
      [f.ws.user.id, guest.id, mate.id].sort(),
    );
  });
});

describe('API tokens', () => {
  test('a token is returned once, works, and stops working when revoked', async () => {
    const created = await f.owner.post('/v1/api-tokens', { name: 'CI' });
    assert.equal(created.status, 201);
    assert.match(created.body.token, /^cairn_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.body.userId, f.ws.user.id);
    assert.equal(created.body.name, 'CI');
    const auth = { authorization: `Bearer ${created.body.token}` };
    assert.equal((await f.anonymous.get('/v1/me', auth)).status, 200);

    const revoked = await f.owner.delete(`/v1/api-tokens/${created.body.id}`);
    assert.equal(revoked.status, 204);
    assert.equal(revoked.body, '');
    problem(await f.anonymous.get('/v1/me', auth), 401, 'unauthenticated');
    assert.equal((await f.owner.delete(`/v1/api-tokens/${created.body.id}`)).status, 204);
  });

  test('tokens are stored hashed', async () => {
    const created = await f.owner.post('/v1/api-tokens', { name: 'Hashed' });
    const row = await f.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.token_hash, created.body.token);
    assert.ok(!row.token_hash.includes(created.body.token.slice(6, 20)));
  });

  test('members mint tokens only for themselves; unknown users are 400', async () => {
    const member = await f.newUser('member');
    problem(await member.api.post('/v1/api-tokens', { name: 'x', userId: f.ws.user.id }), 403, 'forbidden');
    const own = await member.api.post('/v1/api-tokens', { name: 'mine', userId: member.id });
    assert.equal(own.status, 201);
    problem(
      await f.owner.post('/v1/api-tokens', { name: 'x', userId: '00000000-0000-4000-8000-000000000000' }),
      400,
      'validation_failed',
    );
  });

  test("someone else's or another workspace's token is 404 to revoke", async () => {
    const member = await f.newUser('member');
    const ownerToken = await f.owner.post('/v1/api-tokens', { name: 'owner only' });
    problem(await member.api.delete(`/v1/api-tokens/${ownerToken.body.id}`), 404, 'not_found');
    const other = await f.newWorkspace('Initech');
    problem(await other.owner.delete(`/v1/api-tokens/${ownerToken.body.id}`), 404, 'not_found');
    problem(await f.owner.delete('/v1/api-tokens/not-a-uuid'), 404, 'not_found');
  });
});
