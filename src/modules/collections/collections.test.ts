import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();

describe('collections', () => {
  test('create (201), rename (200), list oldest first', async () => {
    const created = await f.owner.post('/v1/collections', { name: 'Roadmap 2027' });
    assert.equal(created.status, 201);
    assert.match(created.body.id, UUID_PATTERN);
    assert.match(created.body.createdAt, ISO_PATTERN);
    assert.equal(created.body.createdById, f.ws.user.id);
    const renamed = await f.owner.post('/v1/collections', { id: created.body.id, name: 'Roadmap 2028' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Roadmap 2028');
    await f.owner.post('/v1/collections', { name: 'Second' });
    const list = await f.owner.get('/v1/collections');
    assert.deepEqual(
      list.body.data.map((c: { name: string }) => c.name),
      ['Roadmap 2028', 'Second'],
    );
    assert.equal(list.body.hasMore, false);
    assert.equal(list.body.nextCursor, null);
    assert.equal('total' in list.body, false);
  });

  test('name is required; unknown ids are 404; guests cannot write', async () => {
    problem(await f.owner.post('/v1/collections', {}), 400, 'validation_failed');
    problem(
      await f.owner.post('/v1/collections', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }),
      404,
      'not_found',
    );
    const guest = await f.newUser('guest');
    problem(await guest.api.post('/v1/collections', { name: 'x' }), 403, 'forbidden');
  });

  test('another workspace sees none of them and cannot rename them', async () => {
    const mine = await f.owner.post('/v1/collections', { name: 'Private plans' });
    const other = await f.newWorkspace('Hooli');
    assert.deepEqual((await other.owner.get('/v1/collections')).body.data, []);
    problem(
      await other.owner.post('/v1/collections', { id: mine.body.id, name: 'stolen' }),
      404,
      'not_found',
    );
  });
});

describe('project statuses', () => {
  test('a workspace starts with the five defaults, in order', async () => {
    const res = await f.owner.get('/v1/project-statuses');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((s: { name: string; color: string; icon: string }) => [s.name, s.color, s.icon]),
      [
        ['Planned', '#95a2b3', 'planned'],
        ['In Progress', '#f2c94c', 'in_progress'],
        ['Paused', '#eb5757', 'paused'],
        ['Completed', '#5e6ad2', 'completed'],
        ['Canceled', '#95a2b3', 'canceled'],
      ],
    );
  });

  test('owners and admins add and change statuses; members cannot', async () => {
    const created = await f.owner.post('/v1/project-statuses', {
      name: 'Blocked',
      color: '#ff0000',
      icon: 'stop',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.position, 5);
    const updated = await f.owner.post('/v1/project-statuses', { id: created.body.id, name: 'On hold' });
    assert.equal(updated.status, 200);
    assert.deepEqual([updated.body.name, updated.body.color], ['On hold', '#ff0000']);
    const member = await f.newUser('member');
    problem(await member.api.post('/v1/project-statuses', { name: 'Mine' }), 403, 'forbidden');
    problem(await f.owner.post('/v1/project-statuses', { color: '#000000' }), 400, 'validation_failed');
    problem(
      await f.owner.post('/v1/project-statuses', { name: 'x', color: 'blue' }),
      400,
      'validation_failed',
    );
  });

  test('each workspace has its own', async () => {
    const other = await f.newWorkspace('Pied Piper');
    const res = await other.owner.get('/v1/project-statuses');
    assert.equal(res.body.data.length, 5);
    const mine = await f.owner.get('/v1/project-statuses');
    const theirs = new Set(res.body.data.map((s: { id: string }) => s.id));
    assert.ok(mine.body.data.every((s: { id: string }) => !theirs.has(s.id)));
  });
});
