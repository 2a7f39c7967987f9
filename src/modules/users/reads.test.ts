// GET /v1/users/{id} and GET /v1/api-tokens (issue 23 §6): one person of the caller's directory, and
// the caller's own tokens without their secrets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { client, ISO_PATTERN, problem, setup } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mia Member');

describe('GET /v1/users/{id}', () => {
  test('a person as the directory lists them, with an ETag that If-None-Match honours', async () => {
    const listed = (await f.owner.get('/v1/users?limit=100')).body.data;
    for (const person of listed) {
      const res = await f.owner.get(`/v1/users/${person.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, person);
    }
    const first = await f.owner.get(`/v1/users/${member.id.toUpperCase()}`);
    assert.equal(first.body.id, member.id, 'ids are case-insensitive');
    const tag = String(first.headers.etag);
    assert.match(tag, /^"[^"]+-[A-Za-z0-9_-]{16}"$/);
    const same = await f.owner.get(`/v1/users/${member.id}`, { 'if-none-match': tag });
    assert.equal(same.status, 304);
    assert.equal(same.body, '');

    assert.equal((await f.owner.post('/v1/users', { id: member.id, name: 'Mia M.' })).status, 200);
    const changed = await f.owner.get(`/v1/users/${member.id}`, { 'if-none-match': tag });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.name, 'Mia M.');
    assert.notEqual(changed.headers.etag, tag);
  });

  test("unknown, malformed and other workspaces' ids are the same 404", async () => {
    const other = await f.newWorkspace('Globex');
    const theirs = (await other.owner.get('/v1/me')).body.id;
    const answers = [];
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const body = problem(await f.owner.get(`/v1/users/${id}`), 404, 'not_found');
      answers.push({ ...body, requestId: undefined });
    }
    assert.equal(answers[0].detail, 'User not found');
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
    problem(await other.owner.get(`/v1/users/${member.id}`), 404, 'not_found');
  });

  test('a guest reads whom its directory lists: itself and the people of its groups', async () => {
    const guest = await f.newUser('guest', 'Gus Guest');
    const mate = await f.newUser('member', 'Team Mate');
    assert.equal((await guest.api.get(`/v1/users/${guest.id}`)).status, 200);
    problem(await guest.api.get(`/v1/users/${mate.id}`), 404, 'not_found');
    problem(await guest.api.get(`/v1/users/${f.ws.user.id}`), 404, 'not_found');
    await f.owner.post('/v1/teams', { name: 'Guest room', members: [{ id: guest.id }, { id: mate.id }] });
    const seen = await guest.api.get(`/v1/users/${mate.id}`);
    assert.equal(seen.status, 200);
    const listed = (await guest.api.get('/v1/users')).body.data;
    assert.deepEqual(
      listed.find((u: { id: string }) => u.id === mate.id),
      seen.body,
    );
    // The owner created the team, so it is a member too, and the guest now sees it.
    assert.equal((await guest.api.get(`/v1/users/${f.ws.user.id}`)).status, 200);
  });

  test('PATCH points to the create-or-update POST', async () => {
    const res = await f.owner.raw({ method: 'PATCH', url: `/v1/users/${member.id}` });
    assert.equal(res.headers.allow, 'GET');
    assert.equal(
      problem(res, 405, 'method_not_allowed').detail,
      'PATCH is not allowed here; use GET. To change it, POST /v1/users with its "id" and the fields to change in the body',
    );
  });
});

describe('GET /v1/api-tokens', () => {
  test("the caller's live tokens, oldest first, never the secret", async () => {
    const api = await f.newUser('member', 'Token Keeper');
    const before = (await api.api.get('/v1/api-tokens')).body;
    // newUser's own token: made by the owner for them, used once since.
    assert.equal(before.data.length, 1);
    assert.deepEqual(Object.keys(before.data[0]).sort(), ['createdAt', 'id', 'lastUsedAt', 'name']);
    assert.equal(before.data[0].name, 'test');
    assert.match(before.data[0].lastUsedAt, ISO_PATTERN, 'the token of this very request was used');

    const ci = (await api.api.post('/v1/api-tokens', { name: 'CI' })).body;
    const laptop = (await api.api.post('/v1/api-tokens', { name: ' Laptop ' })).body;
    const res = await api.api.get('/v1/api-tokens');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      data: [
        before.data[0],
        { id: ci.id, name: 'CI', createdAt: ci.createdAt, lastUsedAt: null },
        { id: laptop.id, name: 'Laptop', createdAt: laptop.createdAt, lastUsedAt: null },
      ],
      nextCursor: null,
      hasMore: false,
    });
    const text = JSON.stringify(res.body);
    assert.ok(!text.includes(ci.token) && !text.includes(ci.token.slice(6, 20)));
    const row = await f.database.db
      .selectFrom('api_tokens')
      .select('token_hash')
      .where('id', '=', ci.id)
      .executeTakeFirstOrThrow();
    assert.ok(!text.includes(row.token_hash));
    assert.equal(res.headers.etag, undefined, 'a list has no ETag');

    // Used: its lastUsedAt shows; revoked: gone.
    await client(f.app, ci.token).get('/v1/me');
    assert.equal((await api.api.delete(`/v1/api-tokens/${laptop.id}`)).status, 204);
    const after = (await api.api.get('/v1/api-tokens')).body.data;
    assert.deepEqual(
      after.map((t: { name: string }) => t.name),
      ['test', 'CI'],
    );
    assert.match(after[1].lastUsedAt, ISO_PATTERN);
  });

  test("only the caller's own: not another user's, whatever the role, nor another workspace's", async () => {
    const mine = (await f.owner.post('/v1/api-tokens', { name: 'owner own' })).body;
    const forMember = (await f.owner.post('/v1/api-tokens', { name: 'for Mia', userId: member.id })).body;
    const ownerNames = (await f.owner.get('/v1/api-tokens?limit=100')).body.data.map(
      (t: { id: string }) => t.id,
    );
    assert.ok(ownerNames.includes(mine.id));
    assert.ok(!ownerNames.includes(forMember.id), 'a token made for someone else is theirs');
    const memberIds = (await member.api.get('/v1/api-tokens')).body.data.map((t: { id: string }) => t.id);
    assert.ok(memberIds.includes(forMember.id));
    assert.ok(!memberIds.includes(mine.id));
    const other = await f.newWorkspace('Initech');
    const theirs = (await other.owner.get('/v1/api-tokens')).body.data;
    assert.equal(theirs.length, 1);
    assert.ok(![mine.id, forMember.id].includes(theirs[0].id));
  });

  test('cursor pages, bound to the caller', async () => {
    for (const name of ['p1', 'p2', 'p3']) await f.owner.post('/v1/api-tokens', { name });
    const all = (await f.owner.get('/v1/api-tokens?limit=100')).body.data.map((t: { id: string }) => t.id);
    assert.ok(all.length >= 4);
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: string | null = null;
    do {
      const page: { status: number; body: { data: { id: string }[]; nextCursor: string | null } } =
        await f.owner.get(`/v1/api-tokens?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((t) => t.id));
      cursor = page.body.nextCursor;
      first ??= cursor;
    } while (cursor);
    assert.deepEqual(seen, all);
    problem(await member.api.get(`/v1/api-tokens?cursor=${first}`), 400, 'invalid_cursor');
    problem(await f.owner.get('/v1/api-tokens?limit=0'), 400, 'validation_failed');
  });
});
