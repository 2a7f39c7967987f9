// A get's read started beside the token lookup (http/prefetch.ts): on PostgreSQL the two statements
// are in flight together once the token is known, and the answer is the one a get without it gives:
// the same body, 401 for a token revoked since, 404 for another workspace's task.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { onPostgres, problem, setUserPassword, setup, signInClient } from '../test/helpers.ts';

// Each pg query's start and end while `watching` is on, in order (installed before the fixture's
// connections exist, as tasks/present.test.ts does).
let watching = false;
let timeline: string[] = [];
if (onPostgres) {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
    if (watching && !text.startsWith('set time zone') && result instanceof Promise) {
      // An API token's lookup and a session's both find their row by `token_hash`.
      const kind = text.includes('token_hash') ? 'token' : text.startsWith('update') ? 'touch' : 'task';
      timeline.push(`${kind} sent`);
      result.then(
        () => timeline.push(`${kind} answered`),
        () => timeline.push(`${kind} failed`),
      );
    }
    return result;
  } as typeof query;
}

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Platform' })).body;
const task = (await f.owner.post('/v1/tasks', { name: 'Write the plan', teamId: team.id })).body;

describe('a get read beside the token lookup', () => {
  test('answers exactly what a get answers, whatever is expanded', async () => {
    const { api } = await f.newUser('member');
    for (const query of ['', '?expand=all', '?expand=status', `?expand=none`]) {
      const url = `/v1/tasks/${task.publicId}${query}`;
      const [first, second] = [await api.get(url), await api.get(url)];
      assert.equal(second.status, 200);
      assert.deepEqual(second.body, first.body, url);
    }
  });

  test('on PostgreSQL, once the token is known, the task is read while the token is looked up', {
    skip: !onPostgres && 'SQLite runs statements one at a time on the main thread: nothing to overlap',
  }, async () => {
    const { api } = await f.newUser('member');
    const first = async () => {
      timeline = [];
      watching = true;
      try {
        assert.equal((await api.get(`/v1/tasks/${task.id}?expand=all`)).status, 200);
      } finally {
        watching = false;
      }
      return timeline;
    };
    // The token's first request: one after the other (with its first use noted: "last used").
    assert.deepEqual(await first(), [
      'token sent',
      'token answered',
      'touch sent',
      'touch answered',
      'touch sent',
      'touch answered',
      'task sent',
      'task answered',
    ]);
    // Then both are sent before either answers.
    const overlapped = await first();
    assert.deepEqual(overlapped.slice(0, 2).sort(), ['task sent', 'token sent']);
    assert.equal(overlapped.length, 4, overlapped.join(', '));
  });

  test("on PostgreSQL, a session's get reads the task beside the session's lookup too", {
    skip: !onPostgres && 'SQLite runs statements one at a time on the main thread: nothing to overlap',
  }, async () => {
    const { id, email } = await f.newUser('member');
    await setUserPassword(f.database, f.ws.workspace.id, id, 'a long enough password');
    const { api } = await signInClient(f.app, email, 'a long enough password');
    const timelineOf = async () => {
      timeline = [];
      watching = true;
      try {
        assert.equal((await api.get(`/v1/tasks/${task.id}`)).status, 200);
      } finally {
        watching = false;
      }
      return timeline;
    };
    assert.deepEqual(await timelineOf(), ['token sent', 'token answered', 'task sent', 'task answered']);
    const overlapped = await timelineOf();
    assert.deepEqual(overlapped.slice(0, 2).sort(), ['task sent', 'token sent']);
    assert.equal(overlapped.length, 4, overlapped.join(', '));
    // Signed out: 401, though the session's workspace was remembered.
    assert.equal((await api.post('/v1/auth/sign-out', {})).status, 204);
    problem(await api.get(`/v1/tasks/${task.id}`), 401, 'unauthenticated');
  });

  test('a token revoked since is 401, though its workspace was remembered', async () => {
    const made = (await f.owner.post('/v1/api-tokens', { name: 'short-lived', userId: f.ws.user.id })).body;
    const headers = { authorization: `Bearer ${made.token}` };
    const url = `/v1/tasks/${task.id}`;
    const before = await f.app.inject({ method: 'GET', url, headers });
    assert.equal(before.statusCode, 200);
    assert.equal((await f.owner.delete(`/v1/api-tokens/${made.id}`)).status, 204);
    const after = await f.app.inject({ method: 'GET', url, headers });
    assert.equal(after.statusCode, 401);
    assert.equal(after.json().code, 'unauthenticated');
    assert.equal(after.body.includes('Write the plan'), false);
    // A failed lookup forgets the workspace: the token's next request starts no read.
    timeline = [];
    watching = true;
    try {
      assert.equal((await f.app.inject({ method: 'GET', url, headers })).statusCode, 401);
    } finally {
      watching = false;
    }
    if (onPostgres) assert.deepEqual(timeline, ['token sent', 'token answered']);
  });

  test("another workspace's task is 404 for a remembered token", async () => {
    const other = await f.newWorkspace('Elsewhere');
    const theirTeam = (await other.owner.post('/v1/teams', { name: 'Theirs' })).body;
    const theirs = (await other.owner.post('/v1/tasks', { name: 'Secret', teamId: theirTeam.id })).body;
    await f.owner.get(`/v1/tasks/${task.id}`);
    timeline = [];
    watching = true;
    try {
      problem(await f.owner.get(`/v1/tasks/${theirs.id}`), 404, 'not_found');
    } finally {
      watching = false;
    }
    // The read started beside the lookup found nothing, and nothing reads the task again.
    if (onPostgres) assert.equal(timeline.filter((t) => t === 'task sent').length, 1, timeline.join(', '));
    assert.equal((await other.owner.get(`/v1/tasks/${theirs.id}`)).status, 200);
  });
});
