import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { advanceClock } from '../clock.ts';
import { problem, setup } from '../test/helpers.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Tags' })).body;
const TAG = /^"[0-9a-z]+-[A-Za-z0-9_-]{16}"$/;
const versionOf = (tag: string) => tag.slice(1, tag.indexOf('-'));
// A version is the resource's updatedAt, to the millisecond; every change moves it at least 1 ms
// past the one before (context.ts changedAt). The tests move the clock (clock.ts) between writes all the same.
const tick = () => advanceClock(5);

async function newTask(name: string) {
  const res = await f.owner.post('/v1/tasks?expand=none', { name, teamId: team.id });
  assert.equal(res.status, 201);
  tick();
  return res;
}

describe('ETag, If-None-Match and If-Match', () => {
  test('single resources carry an ETag on get, create, update and restore; lists do not', async () => {
    const created = await newTask('Tagged');
    assert.match(String(created.headers.etag), TAG);
    const got = await f.owner.get(`/v1/tasks/${created.body.id}?expand=none`);
    assert.equal(got.headers.etag, created.headers.etag);
    const full = await f.owner.get(`/v1/tasks/${created.body.id}`);
    // Another expansion is other bytes, but the same version of the task.
    assert.notEqual(full.headers.etag, got.headers.etag);
    assert.equal(versionOf(String(full.headers.etag)), versionOf(String(got.headers.etag)));
    const updated = await f.owner.post('/v1/tasks?expand=none', { id: created.body.id, name: 'Retagged' });
    assert.equal(updated.status, 200);
    assert.match(String(updated.headers.etag), TAG);
    assert.notEqual(versionOf(String(updated.headers.etag)), versionOf(String(got.headers.etag)));
    tick();
    assert.equal((await f.owner.delete(`/v1/tasks/${created.body.id}`)).status, 204);
    tick();
    const restored = await f.owner.post(`/v1/tasks/${created.body.id}/restore?expand=none`);
    assert.equal(restored.status, 200);
    assert.match(String(restored.headers.etag), TAG);
    for (const other of [
      await f.owner.post('/v1/projects?expand=none', { name: 'Tagged project', teamIds: [team.id] }),
      await f.owner.post('/v1/documents?expand=none', { name: 'Tagged doc', teamId: team.id }),
      await f.owner.get(`/v1/teams/${team.id}`),
    ]) {
      assert.ok(other.status === 200 || other.status === 201, JSON.stringify(other.body));
      assert.match(String(other.headers.etag), TAG);
    }
    const list = await f.owner.get('/v1/tasks/search');
    assert.equal(list.status, 200);
    assert.equal(list.headers.etag, undefined);
  });

  test('If-None-Match answers 304 while the same bytes would be sent, 200 once they change', async () => {
    const created = await newTask('Cached');
    const url = `/v1/tasks/${created.body.id}`;
    const first = await f.owner.get(url);
    const tag = String(first.headers.etag);
    const again = await f.owner.get(url, { 'if-none-match': tag });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, tag);
    assert.equal((await f.owner.get(url, { 'if-none-match': `"other", W/${tag}` })).status, 304);
    assert.equal((await f.owner.get(url, { 'if-none-match': '"other"' })).status, 200);
    // A neighbour in the expansion changes: other bytes, so no 304 (though the task did not change).
    assert.equal((await f.owner.post('/v1/teams', { id: team.id, name: 'Tags renamed' })).status, 200);
    const changed = await f.owner.get(url, { 'if-none-match': tag });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.team.name, 'Tags renamed');
    assert.notEqual(changed.headers.etag, tag);
  });

  test('If-Match: the current version writes; a stale one is 412 and changes nothing', async () => {
    const created = await newTask('Guarded');
    const id = created.body.id;
    const tag = String((await f.owner.get(`/v1/tasks/${id}?expand=none`)).headers.etag);
    const ok = await f.owner.post('/v1/tasks?expand=none', { id, name: 'Guarded 2' }, { 'if-match': tag });
    assert.equal(ok.status, 200);
    tick();
    const stale = await f.owner.post(
      '/v1/tasks?expand=none',
      { id, name: 'Lost update' },
      { 'if-match': tag },
    );
    const body = problem(stale, 412, 'precondition_failed');
    assert.match(body.detail, /The task changed since the ETag given in If-Match/);
    assert.equal((await f.owner.get(`/v1/tasks/${id}`)).body.name, 'Guarded 2');
    // A list of tags matches if any does; `*` matches whatever exists; a weak tag never does.
    const current = String(ok.headers.etag);
    const listed = await f.owner.post(
      '/v1/tasks?expand=none',
      { id, name: 'Guarded 3' },
      { 'if-match': `${tag}, ${current}` },
    );
    assert.equal(listed.status, 200);
    tick();
    assert.equal(
      (await f.owner.post('/v1/tasks?expand=none', { id, name: 'Any' }, { 'if-match': '*' })).status,
      200,
    );
    tick();
    const now = String((await f.owner.get(`/v1/tasks/${id}?expand=none`)).headers.etag);
    problem(
      await f.owner.post('/v1/tasks?expand=none', { id, name: 'Weak' }, { 'if-match': `W/${now}` }),
      412,
      'precondition_failed',
    );
    problem(
      await f.owner.post('/v1/tasks?expand=none', { id, name: 'Junk' }, { 'if-match': 'not a tag' }),
      412,
      'precondition_failed',
    );
  });

  test('If-Match on DELETE, on other resources, and refused on a batch', async () => {
    const created = await newTask('Delete guarded');
    const id = created.body.id;
    const tag = String(created.headers.etag);
    assert.equal((await f.owner.post('/v1/tasks?expand=none', { id, name: 'Moved on' })).status, 200);
    problem(await f.owner.delete(`/v1/tasks/${id}`, { 'if-match': tag }), 412, 'precondition_failed');
    assert.equal((await f.owner.get(`/v1/tasks/${id}`)).body.deletedAt, null);
    const fresh = String((await f.owner.get(`/v1/tasks/${id}`)).headers.etag);
    assert.equal((await f.owner.delete(`/v1/tasks/${id}`, { 'if-match': fresh })).status, 204);

    const doc = await f.owner.post('/v1/documents?expand=none', { name: 'Doc guarded', teamId: team.id });
    tick();
    assert.equal((await f.owner.post('/v1/documents', { id: doc.body.id, name: 'Doc 2' })).status, 200);
    problem(
      await f.owner.post(
        '/v1/documents',
        { id: doc.body.id, name: 'Doc lost' },
        { 'if-match': String(doc.headers.etag) },
      ),
      412,
      'precondition_failed',
    );
    const project = await f.owner.post('/v1/projects?expand=none', {
      name: 'Guarded project',
      teamIds: [team.id],
    });
    tick();
    assert.equal((await f.owner.post('/v1/projects', { id: project.body.id, name: 'P2' })).status, 200);
    problem(
      await f.owner.post(
        '/v1/projects',
        { id: project.body.id, name: 'P lost' },
        { 'if-match': String(project.headers.etag) },
      ),
      412,
      'precondition_failed',
    );

    const batch = await f.owner.post(
      '/v1/tasks/batch',
      { tasks: [{ id, name: 'Batch' }] },
      { 'if-match': fresh },
    );
    const refused = problem(batch, 400, 'validation_failed');
    assert.deepEqual(refused.errors, [{ path: '/headers/if-match', message: 'is not taken by a batch' }]);
  });

  test("a reaction's If-Match names its post: other reactions leave the tag current, a change to the post does not", async () => {
    const task = (await newTask('Reacted')).body;
    const post = await f.owner.post('/v1/posts', {
      entityType: 'task',
      entityId: task.id,
      content: 'Thread',
    });
    const tag = String(post.headers.etag);
    const url = `/v1/posts/${post.body.id}/reactions`;
    assert.equal((await f.owner.post(url, { reaction: 'eyes' }, { 'if-match': tag })).status, 201);
    assert.equal((await f.owner.post(url, { reaction: 'tada' }, { 'if-match': tag })).status, 201);
    assert.equal((await f.owner.delete(`${url}/eyes`, { 'if-match': tag })).status, 204);
    tick();
    assert.equal((await f.owner.post(`/v1/posts/${post.body.id}/resolve`)).status, 200);
    problem(await f.owner.post(url, { reaction: 'rocket' }, { 'if-match': tag }), 412, 'precondition_failed');
    problem(await f.owner.delete(`${url}/tada`, { 'if-match': tag }), 412, 'precondition_failed');
    const reactions = (await f.owner.get(`/v1/posts/${post.body.id}?expand=reactions`)).body.reactions;
    assert.deepEqual(
      reactions.map((r: { reaction: string }) => r.reaction),
      ['tada'],
    );
  });

  test('If-Match on a create is 412, `*` included, and nothing is made', async () => {
    const before = (await f.owner.get(`/v1/tasks/search?teamId=${team.id}&includeTotal=true`)).body.total;
    for (const tag of ['*', '"zz-x"']) {
      const res = await f.owner.post('/v1/tasks', { name: 'Never', teamId: team.id }, { 'if-match': tag });
      const body = problem(res, 412, 'precondition_failed');
      assert.match(body.detail, /this request makes a new one/);
    }
    const after = (await f.owner.get(`/v1/tasks/search?teamId=${team.id}&includeTotal=true`)).body.total;
    assert.equal(after, before);
  });

  test('two writers with the same If-Match at once: exactly one wins, the other is 412', async () => {
    const created = await newTask('Contested');
    const id = created.body.id;
    const tag = String(created.headers.etag);
    const results = await Promise.all(
      ['Writer A', 'Writer B', 'Writer C'].map((name) =>
        f.owner.post('/v1/tasks?expand=none', { id, name }, { 'if-match': tag }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    assert.equal((await f.owner.get(`/v1/tasks/${id}`)).body.name, winner.body.name);
  });

  test('back-to-back changes never share a version, and updatedAt only moves forward', async () => {
    const task = (await newTask('Quick')).body;
    const doc = (await f.owner.post('/v1/documents', { name: 'Quick doc', teamId: team.id })).body;
    const tags: string[] = [];
    const times: string[] = [task.updatedAt];
    for (let i = 0; i < 30; i++) {
      const res = await f.owner.post('/v1/tasks?expand=none', { id: task.id, name: `Quick ${i}` });
      tags.push(versionOf(String(res.headers.etag)));
      times.push(res.body.updatedAt);
    }
    const deleted = await f.owner.delete(`/v1/tasks/${task.id}`);
    assert.equal(deleted.status, 204);
    const restored = await f.owner.post(`/v1/tasks/${task.id}/restore?expand=none`);
    times.push(restored.body.updatedAt);
    assert.equal(new Set(tags).size, tags.length, 'every change a version of its own');
    for (let i = 1; i < times.length; i++)
      assert.ok(times[i]! > times[i - 1]!, `${times[i]} after ${times[i - 1]}`);
    // The same on documents, both at once (each its own row).
    const docTimes = await Promise.all(
      [1, 2, 3].map((n) => f.owner.post('/v1/documents', { id: doc.id, name: `Quick doc ${n}` })),
    );
    const stamps = docTimes.map((r) => r.body.updatedAt).sort();
    assert.equal(new Set(stamps).size, 3);
  });
});
