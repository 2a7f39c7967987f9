import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();

describe('POST /v1/teams (create)', () => {
  test('creates a team with defaults: five statuses, no labels, the creator as owner', async () => {
    const res = await f.owner.post('/v1/teams', { name: 'Engineering', icon: '🛠', color: '#112233' });
    assert.equal(res.status, 201);
    const t = res.body;
    assert.match(t.id, UUID_PATTERN);
    assert.match(t.createdAt, ISO_PATTERN);
    assert.deepEqual(
      {
        name: t.name,
        publicId: t.publicId,
        icon: t.icon,
        color: t.color,
        privacy: t.privacy,
        archivedAt: t.archivedAt,
      },
      {
        name: 'Engineering',
        publicId: 'ENG',
        icon: '🛠',
        color: '#112233',
        privacy: 'workspace',
        archivedAt: null,
      },
    );
    assert.deepEqual(
      t.taskStatuses.map((s: { name: string; stage: string }) => [s.name, s.stage]),
      [
        ['Backlog', 'backlog'],
        ['Todo', 'unstarted'],
        ['In Progress', 'started'],
        ['Done', 'completed'],
        ['Canceled', 'canceled'],
      ],
    );
    assert.deepEqual(t.taskLabels, []);
    assert.equal(t.members.length, 1);
    const m = t.members[0];
    assert.deepEqual(
      { id: m.id, role: m.role, username: m.username, email: m.email },
      { id: f.ws.user.id, role: 'owner', username: 'Olive Owner', email: 'olive@acme.test' },
    );
    assert.match(m.createdAt, ISO_PATTERN);
    assert.equal('description' in t, false);
  });

  test('publicIds are derived uniquely, or taken as given (upper-cased); a taken one is 409', async () => {
    const a = await f.owner.post('/v1/teams', { name: 'Engineering Two' });
    assert.equal(a.body.publicId, 'ET');
    const b = await f.owner.post('/v1/teams', { name: 'Engineers' });
    assert.equal(b.body.publicId, 'ENG2');
    const c = await f.owner.post('/v1/teams', { name: 'Custom', publicId: 'cus1' });
    assert.equal(c.body.publicId, 'CUS1');
    problem(await f.owner.post('/v1/areas', { name: 'Clash', publicId: 'CUS1' }), 409, 'conflict');
    problem(
      await f.owner.post('/v1/teams', { name: 'Bad', publicId: 'TOO-LONG-ID' }),
      400,
      'validation_failed',
    );
  });

  test('given statuses, labels and members are used; unknown member ids are 400 and change nothing', async () => {
    const member = await f.newUser('member', 'Max');
    const res = await f.owner.post('/v1/teams', {
      name: 'Design',
      privacy: 'private',
      members: [{ id: member.id, role: 'member' }],
      taskStatuses: [
        { name: 'Ideas', stage: 'backlog' },
        { name: 'Drawing', stage: 'started', color: '#abcdef' },
        { name: 'Shipped', stage: 'completed' },
      ],
      taskLabels: [{ name: 'UX', color: '#ff0000' }, { name: 'Brand' }],
    });
    assert.equal(res.status, 201);
    assert.deepEqual(
      res.body.members.map((m: { id: string; role: string }) => [m.id, m.role]).sort(),
      [
        [f.ws.user.id, 'owner'],
        [member.id, 'member'],
      ].sort(),
    );
    assert.deepEqual(
      res.body.taskStatuses.map((s: { name: string; color: string }) => [s.name, s.color]),
      [
        ['Ideas', '#95a2b3'],
        ['Drawing', '#abcdef'],
        ['Shipped', '#5e6ad2'],
      ],
    );
    assert.deepEqual(
      res.body.taskLabels.map((l: { name: string; color: string }) => [l.name, l.color]),
      [
        ['UX', '#ff0000'],
        ['Brand', '#bec2c8'],
      ],
    );
    const bad = await f.owner.post('/v1/teams', {
      name: 'Nobody Team',
      members: [{ id: '00000000-0000-4000-8000-000000000000' }],
    });
    assert.equal(problem(bad, 400, 'validation_failed').errors[0].path, '/body/members/0/id');
    assert.equal((await f.owner.get('/v1/teams/search?name=nobody')).body.total, 0);
  });

  test('guests cannot create teams', async () => {
    const guest = await f.newUser('guest');
    problem(await guest.api.post('/v1/teams', { name: 'Guest team' }), 403, 'forbidden');
  });
});

describe('POST /v1/teams (update)', () => {
  test('present fields replace, null clears, absent fields stay; 200', async () => {
    const created = await f.owner.post('/v1/teams', { name: 'Ops', icon: 'gear', color: '#000000' });
    const res = await f.owner.post('/v1/teams', { id: created.body.id, name: 'Operations', icon: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'Operations');
    assert.equal(res.body.icon, null);
    assert.equal(res.body.color, '#000000');
    assert.equal(res.body.publicId, created.body.publicId);
    assert.ok(res.body.updatedAt >= created.body.updatedAt);
  });

  test('statuses are replaced by the list: ids keep, new ones are added, missing ones go', async () => {
    const created = await f.owner.post('/v1/teams', { name: 'Support' });
    const [backlog, todo] = created.body.taskStatuses;
    const res = await f.owner.post('/v1/teams', {
      id: created.body.publicId,
      taskStatuses: [
        { id: todo.id, name: 'To do', stage: 'unstarted' },
        { id: backlog.id, name: 'Backlog', stage: 'backlog' },
        { name: 'Done', stage: 'completed' },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.taskStatuses.map((s: { id: string; name: string }) => s.name),
      ['To do', 'Backlog', 'Done'],
    );
    assert.equal(res.body.taskStatuses[0].id, todo.id);
    assert.equal(res.body.taskStatuses[1].id, backlog.id);
    const other = await f.owner.post('/v1/teams', { name: 'Elsewhere' });
    const foreign = await f.owner.post('/v1/teams', {
      id: created.body.id,
      taskStatuses: [{ id: other.body.taskStatuses[0].id, name: 'Stolen', stage: 'backlog' }],
    });
    assert.equal(problem(foreign, 400, 'validation_failed').errors[0].path, '/body/taskStatuses/0/id');
    problem(
      await f.owner.post('/v1/teams', { id: created.body.id, taskStatuses: [] }),
      400,
      'validation_failed',
    );
  });

  test('members replace the list', async () => {
    const a = await f.newUser('member');
    const created = await f.owner.post('/v1/teams', { name: 'Rotation', members: [{ id: a.id }] });
    const res = await f.owner.post('/v1/teams', {
      id: created.body.id,
      members: [{ id: a.id, role: 'owner' }],
    });
    assert.deepEqual(
      res.body.members.map((m: { id: string; role: string }) => [m.id, m.role]),
      [[a.id, 'owner']],
    );
  });

  test('an unknown id is 404; an id of another kind is 404', async () => {
    problem(
      await f.owner.post('/v1/teams', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }),
      404,
      'not_found',
    );
    const area = await f.owner.post('/v1/areas', { name: 'Marketing Area', publicId: 'MKT' });
    problem(await f.owner.post('/v1/teams', { id: area.body.id, name: 'x' }), 404, 'not_found');
    problem(await f.owner.get('/v1/teams/MKT'), 404, 'not_found');
  });

  test('a member who does not own the team gets 403; a team owner may edit', async () => {
    const member = await f.newUser('member');
    const created = await f.owner.post('/v1/teams', { name: 'Owned' });
    problem(await member.api.post('/v1/teams', { id: created.body.id, name: 'Mine now' }), 403, 'forbidden');
    problem(await member.api.post(`/v1/teams/${created.body.id}/archive`), 403, 'forbidden');
    await f.owner.post('/v1/teams', { id: created.body.id, members: [{ id: member.id, role: 'owner' }] });
    const ok = await member.api.post('/v1/teams', { id: created.body.id, name: 'Shared' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.name, 'Shared');
  });
});

describe('areas', () => {
  test('create-or-update with a plain-string description', async () => {
    const res = await f.owner.post('/v1/areas', {
      name: 'Finance',
      publicId: 'FIN',
      description: 'Money matters',
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.description, 'Money matters');
    assert.equal(res.body.publicId, 'FIN');
    const updated = await f.owner.post('/v1/areas', { id: res.body.id, description: null });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.description, null);
    assert.equal(updated.body.name, 'Finance');
    const got = await f.owner.get('/v1/areas/fin?expand=none');
    assert.deepEqual(Object.keys(got.body).sort(), [
      'archivedAt',
      'color',
      'createdAt',
      'description',
      'icon',
      'id',
      'name',
      'privacy',
      'publicId',
      'updatedAt',
    ]);
  });

  test('teams do not take a description', async () => {
    const res = await f.owner.post('/v1/teams', { name: 'No desc', description: 'x' });
    assert.equal(problem(res, 400, 'validation_failed').errors[0].path, '/body/description');
  });
});

describe('GET, archive and unarchive', () => {
  test('get by UUID or publicId', async () => {
    const created = await f.owner.post('/v1/teams', { name: 'Lookup', publicId: 'LOOK' });
    assert.equal((await f.owner.get(`/v1/teams/${created.body.id}`)).body.id, created.body.id);
    assert.equal((await f.owner.get('/v1/teams/LOOK')).body.id, created.body.id);
    assert.equal((await f.owner.get('/v1/teams/look')).body.id, created.body.id);
    problem(await f.owner.get('/v1/teams/NOPE'), 404, 'not_found');
  });

  test('archive sets archivedAt (twice is fine); unarchive clears it; unarchive again is 409', async () => {
    const created = await f.owner.post('/v1/teams', { name: 'Seasonal' });
    const archived = await f.owner.post(`/v1/teams/${created.body.id}/archive`);
    assert.equal(archived.status, 200);
    assert.match(archived.body.archivedAt, ISO_PATTERN);
    const again = await f.owner.post(`/v1/teams/${created.body.id}/archive`);
    assert.equal(again.body.archivedAt, archived.body.archivedAt);
    const restored = await f.owner.post(`/v1/teams/${created.body.id}/unarchive`, undefined, {
      'content-type': 'application/json',
    });
    assert.equal(restored.status, 200);
    assert.equal(restored.body.archivedAt, null);
    problem(await f.owner.post(`/v1/teams/${created.body.id}/unarchive`), 409, 'not_archived');
  });
});

describe('privacy and tenancy', () => {
  test('a private team is 404 to a non-member, visible to members and admins', async () => {
    const outsider = await f.newUser('member');
    const insider = await f.newUser('member');
    const admin = await f.newUser('admin');
    const team = await f.owner.post('/v1/teams', {
      name: 'Secret Lab',
      privacy: 'private',
      members: [{ id: insider.id }],
    });
    const id = team.body.id;
    problem(await outsider.api.get(`/v1/teams/${id}`), 404, 'not_found');
    problem(await outsider.api.post('/v1/teams', { id, name: 'peek' }), 404, 'not_found');
    problem(await outsider.api.post(`/v1/teams/${id}/archive`), 404, 'not_found');
    assert.equal((await insider.api.get(`/v1/teams/${id}`)).status, 200);
    assert.equal((await admin.api.get(`/v1/teams/${id}`)).status, 200);
    assert.equal((await outsider.api.get('/v1/teams/search?name=secret')).body.total, 0);
    assert.equal((await insider.api.get('/v1/teams/search?name=secret')).body.total, 1);
  });

  test('guests see only the groups they belong to', async () => {
    const guest = await f.newUser('guest');
    const open = await f.owner.post('/v1/teams', { name: 'Open Plan' });
    const joined = await f.owner.post('/v1/teams', { name: 'Open Door', members: [{ id: guest.id }] });
    problem(await guest.api.get(`/v1/teams/${open.body.id}`), 404, 'not_found');
    assert.equal((await guest.api.get(`/v1/teams/${joined.body.id}`)).status, 200);
    const found = await guest.api.get('/v1/teams/search?name=open');
    assert.deepEqual(
      found.body.data.map((t: { id: string }) => t.id),
      [joined.body.id],
    );
  });

  test("another workspace sees none of this workspace's teams or areas", async () => {
    const team = await f.owner.post('/v1/teams', { name: 'Tenant Team', publicId: 'TEN' });
    const area = await f.owner.post('/v1/areas', { name: 'Tenant Area', publicId: 'TENA' });
    const other = await f.newWorkspace('Umbrella');
    problem(await other.owner.get(`/v1/teams/${team.body.id}`), 404, 'not_found');
    problem(await other.owner.get('/v1/teams/TEN'), 404, 'not_found');
    problem(await other.owner.get(`/v1/areas/${area.body.id}`), 404, 'not_found');
    problem(await other.owner.post('/v1/teams', { id: team.body.id, name: 'hijack' }), 404, 'not_found');
    const search = await other.owner.get('/v1/teams/search');
    assert.deepEqual(search.body.data, []);
    assert.equal(search.body.total, 0);
    // The same publicId is free in another workspace.
    assert.equal((await other.owner.post('/v1/teams', { name: 'Mine', publicId: 'TEN' })).status, 201);
    const me = await f.newUser('member');
    problem(
      await other.owner.post('/v1/teams', { name: 'Poach', members: [{ id: me.id }] }),
      400,
      'validation_failed',
    );
  });
});

describe('events', () => {
  test('every team and area change records its event in the outbox', async () => {
    const typesOf = async (id: string) =>
      (
        await f.database.db
          .selectFrom('events')
          .select(['type', 'actor_id'])
          .where('workspace_id', '=', f.ws.workspace.id)
          .where('entity_id', '=', id)
          .orderBy('created_at')
          .orderBy('type') // created sorts before updated within one millisecond
          .execute()
      ).map((e) => [e.type, e.actor_id]);
    const me = f.ws.user.id;
    const team = (await f.owner.post('/v1/teams', { name: 'Evented team' })).body;
    await f.owner.post('/v1/teams', { id: team.id, color: '#123456' });
    await f.owner.post(`/v1/teams/${team.id}/archive`);
    await f.owner.post(`/v1/teams/${team.id}/archive`); // already archived: no change, no event
    await f.owner.post(`/v1/teams/${team.id}/unarchive`);
    assert.deepEqual(await typesOf(team.id), [
      ['team.created', me],
      ['team.updated', me],
      ['team.updated', me],
      ['team.updated', me],
    ]);
    const area = (await f.owner.post('/v1/areas', { name: 'Evented area' })).body;
    await f.owner.post('/v1/areas', { id: area.id, description: 'Now described' });
    assert.deepEqual(await typesOf(area.id), [
      ['area.created', me],
      ['area.updated', me],
    ]);
  });
});
