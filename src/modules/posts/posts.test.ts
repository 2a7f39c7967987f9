import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Fix login', teamId: eng.id })).body;
const secret = (
  await f.owner.post('/v1/tasks?expand=none', { name: 'Secret', teamId: eng.id, visibility: 'private' })
).body;
const project = (await f.owner.post('/v1/projects?expand=none', { name: 'Launch', teamId: eng.id })).body;
const doc = (await f.owner.post('/v1/documents?expand=none', { name: 'Runbook', teamId: eng.id })).body;

async function post(body: Record<string, unknown>, as = f.owner) {
  const res = await as.post('/v1/posts', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('POST /v1/posts', () => {
  test('a post with images on a task, with every field and expansion', async () => {
    const p = await post({
      entityType: 'task',
      entityId: String(task.publicId),
      content: 'Looks **good** <script>alert(1)</script>',
      images: [{ url: 'https://cdn.example.com/shots/board%20one.png?v=2', width: 1200, height: 800 }],
    });
    assert.match(p.id, UUID_PATTERN);
    assert.match(p.createdAt, ISO_PATTERN);
    const image = p.images[0];
    assert.match(image.id, UUID_PATTERN);
    assert.deepEqual(p, {
      id: p.id,
      publicId: p.publicId,
      content: 'Looks **good**',
      action: null,
      actionValue: null,
      entityId: task.id,
      entityType: 'task',
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
      ownerId: f.ws.user.id,
      parentId: null,
      isResolved: false,
      entityTitle: 'Fix login',
      entityUrl: `http://cairn.test/v1/tasks/${task.id}`,
      postUrl: `http://cairn.test/v1/posts/${p.id}`,
      images: [
        {
          id: image.id,
          key: 'shots/board one.png',
          url: 'https://cdn.example.com/shots/board%20one.png?v=2',
          postId: p.id,
          width: 1200,
          height: 800,
          aspectRatio: 1.5,
        },
      ],
      reactions: [],
      owner: { id: f.ws.user.id, name: 'Olive Owner', email: 'olive@acme.test' },
    });
    const read = await member.api.get(`/v1/posts/${p.publicId}?expand=none`);
    assert.equal(read.status, 200);
    assert.deepEqual(Object.keys(read.body).includes('images'), false);
    assert.equal(read.body.id, p.id);
  });

  test('on projects and documents; entityTitle and entityUrl follow the entity', async () => {
    const onProject = await post({ entityType: 'project', entityId: project.id, content: 'Kickoff' });
    assert.deepEqual(
      [onProject.entityTitle, onProject.entityUrl],
      ['Launch', `http://cairn.test/v1/projects/${project.id}`],
    );
    const onDoc = await post({ entityType: 'document', entityId: doc.publicId, content: 'Typo' }, member.api);
    assert.deepEqual([onDoc.entityTitle, onDoc.ownerId], ['Runbook', member.id]);
  });

  test('bad input: unknown or invisible entities, wrong types, replies to replies', async () => {
    problem(
      await f.owner.post('/v1/posts', { entityType: 'project', entityId: task.id, content: 'x' }),
      404,
      'not_found',
    );
    problem(
      await member.api.post('/v1/posts', { entityType: 'task', entityId: secret.id, content: 'x' }),
      404,
      'not_found',
    );
    problem(
      await f.owner.post('/v1/posts', { entityType: 'team', entityId: eng.id, content: 'x' }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post('/v1/posts', { entityType: 'task', entityId: task.id, content: '   ' }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post('/v1/posts', { entityType: 'task', entityId: task.id }),
      400,
      'validation_failed',
    );
    const ftp = problem(
      await f.owner.post('/v1/posts', {
        entityType: 'task',
        entityId: task.id,
        content: 'x',
        images: [{ url: 'ftp://files.example.com/a.png', width: 1, height: 1 }],
      }),
      400,
      'validation_failed',
    );
    assert.equal(ftp.errors[0].path, '/body/images/0/url');
    const top = await post({ entityType: 'task', entityId: task.id, content: 'Top' });
    const reply = await post({ entityType: 'task', entityId: task.id, content: 'Reply', parentId: top.id });
    assert.equal(reply.parentId, top.id);
    const deep = problem(
      await f.owner.post('/v1/posts', {
        entityType: 'task',
        entityId: task.id,
        content: 'x',
        parentId: reply.id,
      }),
      400,
      'validation_failed',
    );
    assert.equal(deep.errors[0].path, '/body/parentId');
    problem(
      await f.owner.post('/v1/posts', {
        entityType: 'document',
        entityId: doc.id,
        content: 'x',
        parentId: top.id,
      }),
      400,
      'validation_failed',
    );
    const other = await f.newWorkspace('Elsewhere');
    problem(
      await other.owner.post('/v1/posts', { entityType: 'task', entityId: task.id, content: 'x' }),
      404,
      'not_found',
    );
    problem(await other.owner.get(`/v1/posts/${top.id}`), 404, 'not_found');
    const gone = (await f.owner.post('/v1/tasks?expand=none', { name: 'Gone', teamId: eng.id })).body;
    await f.owner.delete(`/v1/tasks/${gone.id}`);
    problem(
      await f.owner.post('/v1/posts', { entityType: 'task', entityId: gone.id, content: 'x' }),
      409,
      'deleted',
    );
    const list = await f.owner.get(`/v1/posts/list?entityType=task&entityId=${gone.id}&includeTotal=true`);
    assert.deepEqual([list.body.data, list.body.total], [[], 0]);
  });
});

describe('GET /v1/posts/list and replies', () => {
  test('top-level posts oldest first, with totals, offset and cursors; replies apart', async () => {
    const busy = (await f.owner.post('/v1/tasks?expand=none', { name: 'Busy', teamId: eng.id })).body;
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(await post({ entityType: 'task', entityId: busy.id, content: `c${i}` }));
    await post({ entityType: 'task', entityId: busy.id, content: 'r0', parentId: made[0].id });
    await post({ entityType: 'task', entityId: busy.id, content: 'r1', parentId: made[0].id });
    const base = `/v1/posts/list?entityType=task&entityId=${busy.publicId}&expand=none`;
    const first = await f.owner.get(`${base}&limit=2&includeTotal=true`);
    assert.equal(first.status, 200);
    assert.deepEqual(
      [first.body.data.map((p: { content: string }) => p.content), first.body.total, first.body.hasMore],
      [['c0', 'c1'], 5, true],
    );
    const second = await f.owner.get(`${base}&limit=2&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      second.body.data.map((p: { content: string }) => p.content),
      ['c2', 'c3'],
    );
    assert.equal('total' in second.body, false);
    const skipped = await f.owner.get(`${base}&offset=4`);
    assert.deepEqual(
      skipped.body.data.map((p: { content: string }) => p.content),
      ['c4'],
    );
    problem(await f.owner.get(`${base}&offset=1&cursor=${first.body.nextCursor}`), 400, 'validation_failed');
    problem(
      await f.owner.get(
        `/v1/posts/list?entityType=project&entityId=${project.id}&cursor=${first.body.nextCursor}`,
      ),
      400,
      'invalid_cursor',
    );
    const replies = await f.owner.get(`/v1/posts/${made[0].id}/replies?expand=none&includeTotal=true`);
    assert.deepEqual(
      [replies.body.data.map((p: { content: string }) => p.content), replies.body.total],
      [['r0', 'r1'], 2],
    );
    problem(await f.owner.get('/v1/posts/list?entityType=task'), 400, 'validation_failed');
    problem(await member.api.get(`/v1/posts/list?entityType=task&entityId=${secret.id}`), 404, 'not_found');
  });

  test('project status updates are posts with their action', async () => {
    const statuses = (await f.owner.get('/v1/project-statuses')).body.data;
    const p = (await f.owner.post('/v1/projects?expand=none', { name: 'Status', teamId: eng.id })).body;
    const res = await f.owner.post(`/v1/projects/${p.id}/status-update`, {
      statusId: statuses[2].id,
      content: 'Paused for **review**',
    });
    assert.equal(res.status, 200);
    const list = await f.owner.get(`/v1/posts/list?entityType=project&entityId=${p.id}&expand=none`);
    assert.deepEqual(
      list.body.data.map((x: Record<string, unknown>) => [x.action, x.actionValue, x.content, x.entityTitle]),
      [['status_update', statuses[2].id, 'Paused for **review**', 'Status']],
    );
  });
});

describe('reactions and resolving', () => {
  test('one reaction per user and name; removal is 204; a private entity hides them', async () => {
    const p = await post({ entityType: 'document', entityId: doc.id, content: 'React' });
    const first = await member.api.post(`/v1/posts/${p.id}/reactions`, { reaction: 'thumbsup' });
    assert.equal(first.status, 201);
    assert.match(first.body.id, UUID_PATTERN);
    assert.deepEqual(first.body, {
      id: first.body.id,
      postId: p.id,
      userId: member.id,
      reaction: 'thumbsup',
    });
    const again = await member.api.post(`/v1/posts/${p.id}/reactions`, { reaction: 'thumbsup' });
    assert.deepEqual([again.status, again.body], [200, first.body]);
    await f.owner.post(`/v1/posts/${p.id}/reactions`, { reaction: 'thumbsup' });
    const read = await f.owner.get(`/v1/posts/${p.id}?expand=reactions`);
    assert.deepEqual(
      read.body.reactions.map((r: { userId: string }) => r.userId),
      [member.id, f.ws.user.id],
    );
    assert.equal((await member.api.delete(`/v1/posts/${p.id}/reactions/thumbsup`)).status, 204);
    assert.equal((await member.api.delete(`/v1/posts/${p.id}/reactions/thumbsup`)).status, 204);
    const after = await f.owner.get(`/v1/posts/${p.id}?expand=reactions`);
    assert.deepEqual(
      after.body.reactions.map((r: { userId: string }) => r.userId),
      [f.ws.user.id],
    );
    problem(
      await member.api.post(`/v1/posts/${p.id}/reactions`, { reaction: 'two words' }),
      400,
      'validation_failed',
    );
    const hidden = await post({ entityType: 'task', entityId: secret.id, content: 'Psst' });
    problem(
      await member.api.post(`/v1/posts/${hidden.id}/reactions`, { reaction: 'eyes' }),
      404,
      'not_found',
    );
    problem(await member.api.get(`/v1/posts/${hidden.id}`), 404, 'not_found');
  });

  test('a reaction is a name a URL carries: . and .. are refused, and every accepted one can be removed', async () => {
    const p = await post({ entityType: 'task', entityId: task.id, content: 'Dots' });
    for (const reaction of ['.', '..']) {
      const body = problem(
        await member.api.post(`/v1/posts/${p.id}/reactions`, { reaction }),
        400,
        'validation_failed',
      );
      assert.deepEqual(body.errors, [
        {
          path: '/body/reaction',
          message: 'is rewritten by URL path normalisation (such as . and ..), so it could not be removed',
        },
      ]);
    }
    const names = ['...', '.x', '%2e', '%2E%2E', 'a/b', '?', '#', '\\', '+1', '🎉', 'thumbs.up'];
    for (const reaction of names) {
      const added = await member.api.post(`/v1/posts/${p.id}/reactions`, { reaction });
      assert.equal(added.status, 201, reaction);
    }
    // Removed through the URL a client builds: encoded as one segment, then normalised by URL parsing.
    for (const reaction of names) {
      const url = new URL(`/v1/posts/${p.id}/reactions/${encodeURIComponent(reaction)}`, 'http://cairn.test');
      assert.equal((await member.api.delete(url.pathname)).status, 204, reaction);
    }
    const read = await member.api.get(`/v1/posts/${p.id}?expand=reactions`);
    assert.deepEqual(read.body.reactions, []);
  });

  test('resolve and unresolve a thread; a reply cannot be resolved', async () => {
    const p = await post({ entityType: 'task', entityId: task.id, content: 'Thread' });
    const resolved = await member.api.post(`/v1/posts/${p.id}/resolve?expand=none`);
    assert.deepEqual([resolved.status, resolved.body.isResolved], [200, true]);
    assert.equal((await member.api.post(`/v1/posts/${p.id}/resolve`)).body.isResolved, true);
    const reopened = await f.owner.post(`/v1/posts/${p.id}/unresolve`);
    assert.deepEqual([reopened.status, reopened.body.isResolved], [200, false]);
    const reply = await post({ entityType: 'task', entityId: task.id, content: 'Reply', parentId: p.id });
    problem(await f.owner.post(`/v1/posts/${reply.id}/resolve`), 409, 'conflict');
  });
});
