import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const ops = (await f.owner.post('/v1/teams', { name: 'Operations' })).body;
const roadmap = (await f.owner.post('/v1/collections', { name: 'Roadmap' })).body;
const statuses = (await f.owner.get('/v1/project-statuses')).body.data;

describe('POST /v1/projects', () => {
  test('creates with every field and expansion', async () => {
    const res = await f.owner.post('/v1/projects?includeMarkdown=true', {
      name: 'Big Launch',
      teamId: eng.id,
      teamIds: [ops.id],
      collectionId: roadmap.id,
      statusId: statuses[1].id,
      icon: 'rocket',
      color: '#ff0000',
      startDate: '2026-12-01',
      dueDate: 1798761600000,
      description: { markdown: '# Goal\n\nShip it' },
    });
    assert.equal(res.status, 201);
    const p = res.body;
    assert.match(p.id, UUID_PATTERN);
    assert.match(p.createdAt, ISO_PATTERN);
    assert.deepEqual(
      {
        name: p.name,
        slug: p.slug,
        icon: p.icon,
        color: p.color,
        startDate: p.startDate,
        dueDate: p.dueDate,
        ownerId: p.ownerId,
        collectionId: p.collectionId,
        workspaceId: p.workspaceId,
        statusId: p.statusId,
        archivedAt: p.archivedAt,
        teamIds: p.teamIds,
        description: p.description,
      },
      {
        name: 'Big Launch',
        slug: 'big-launch',
        icon: 'rocket',
        color: '#ff0000',
        startDate: '2026-12-01T00:00:00.000Z',
        dueDate: '2027-01-01T00:00:00.000Z',
        ownerId: f.ws.user.id,
        collectionId: roadmap.id,
        workspaceId: f.ws.workspace.id,
        statusId: statuses[1].id,
        archivedAt: null,
        teamIds: [eng.id, ops.id],
        description: { html: '<h1>Goal</h1>\n<p>Ship it</p>', markdown: '# Goal\n\nShip it' },
      },
    );
    assert.equal(typeof p.publicId, 'string');
    assert.deepEqual(p.owner, { id: f.ws.user.id, name: 'Olive Owner', email: 'olive@acme.test' });
    assert.deepEqual(p.status, {
      id: statuses[1].id,
      name: 'In Progress',
      color: '#f2c94c',
      icon: 'in_progress',
    });
    assert.deepEqual(p.teams, [
      { id: eng.id, name: 'Engineering', publicId: 'ENG' },
      { id: ops.id, name: 'Operations', publicId: 'OPE' },
    ]);
    assert.deepEqual(p.collection, { id: roadmap.id, name: 'Roadmap' });
  });

  test('defaults: first status, the caller as owner, no collection; slugs stay unique', async () => {
    const a = await f.owner.post('/v1/projects?expand=none', { name: 'Big Launch', teamId: eng.id });
    assert.equal(a.status, 201);
    assert.equal(a.body.slug, 'big-launch-2');
    assert.equal(a.body.statusId, statuses[0].id);
    assert.equal(a.body.collectionId, null);
    assert.deepEqual(
      Object.keys(a.body).filter((k) => ['owner', 'status', 'teams', 'collection'].includes(k)),
      [],
    );
    const b = await f.owner.post('/v1/projects?expand=collection', { name: '¡Olé! Café', teamId: eng.id });
    assert.equal(b.body.slug, 'ole-cafe');
    assert.equal(b.body.collection, null);
  });

  test('name and teamId are required to create; bad references are 400', async () => {
    problem(await f.owner.post('/v1/projects', { teamId: eng.id }), 400, 'validation_failed');
    assert.equal(
      problem(await f.owner.post('/v1/projects', { name: 'No team' }), 400, 'validation_failed').errors[0]
        .path,
      '/body/teamId',
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ teamId: '00000000-0000-4000-8000-000000000000' }, '/body/teamId'],
      [{ teamId: eng.id, statusId: eng.taskStatuses[0].id }, '/body/statusId'],
      [{ teamId: eng.id, collectionId: eng.id }, '/body/collectionId'],
      [{ teamId: eng.id, ownerId: '00000000-0000-4000-8000-000000000000' }, '/body/ownerId'],
      [{ teamId: eng.id, color: 'red' }, '/body/color'],
      [{ teamId: eng.id, dueDate: 'soon' }, '/body/dueDate'],
      [{ teamId: eng.id, nickname: 'x' }, '/body/nickname'],
    ];
    for (const [body, path] of cases) {
      const res = problem(
        await f.owner.post('/v1/projects', { name: 'Bad', ...body }),
        400,
        'validation_failed',
      );
      assert.equal(res.errors[0].path, path, JSON.stringify(res.errors));
    }
  });

  test('update: fields replace, null clears, the slug follows the name; unknown id is 404', async () => {
    const p = (await f.owner.post('/v1/projects', { name: 'Renameable', teamId: eng.id, color: '#000000' }))
      .body;
    const res = await f.owner.post('/v1/projects', {
      id: p.publicId,
      name: 'Renamed Thing',
      color: null,
      teamIds: [ops.id],
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.slug, 'renamed-thing');
    assert.equal(res.body.color, null);
    assert.deepEqual(res.body.teamIds, [ops.id]);
    assert.ok(res.body.updatedAt >= p.updatedAt);
    problem(
      await f.owner.post('/v1/projects', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }),
      404,
      'not_found',
    );
  });
});

describe('archive, unarchive and status updates', () => {
  test('archive hides from list and search unless includeArchived; unarchive twice is 409', async () => {
    const p = (await f.owner.post('/v1/projects', { name: 'Shelved idea', teamId: eng.id })).body;
    const archived = await f.owner.post(`/v1/projects/${p.id}/archive`);
    assert.equal(archived.status, 200);
    assert.match(archived.body.archivedAt, ISO_PATTERN);
    const listed = (await f.owner.get('/v1/projects/list?expand=none&limit=100')).body.data.map(
      (x: { id: string }) => x.id,
    );
    assert.ok(!listed.includes(p.id));
    const all = (await f.owner.get('/v1/projects/list?expand=none&limit=100&includeArchived=true')).body.data;
    assert.ok(all.some((x: { id: string }) => x.id === p.id));
    assert.equal((await f.owner.get('/v1/projects/search?name=shelved')).body.total, 0);
    assert.equal((await f.owner.get('/v1/projects/search?name=shelved&includeArchived')).body.total, 1);
    const back = await f.owner.post(`/v1/projects/${p.id}/unarchive?expand=status`);
    assert.equal(back.status, 200);
    assert.equal(back.body.archivedAt, null);
    assert.ok(back.body.status);
    problem(await f.owner.post(`/v1/projects/${p.id}/unarchive`), 409, 'not_archived');
  });

  test('status-update sets the status and writes a status-update post in the same transaction', async () => {
    const p = (await f.owner.post('/v1/projects', { name: 'Status project', teamId: eng.id })).body;
    const res = await f.owner.post(`/v1/projects/${p.id}/status-update?expand=status`, {
      statusId: statuses[3].id,
      content: 'All done!',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.statusId, statuses[3].id);
    assert.equal(res.body.status.name, 'Completed');
    const posts = await f.database.db.selectFrom('posts').selectAll().where('entity_id', '=', p.id).execute();
    assert.equal(posts.length, 1);
    assert.deepEqual(
      [
        posts[0]!.entity_type,
        posts[0]!.action,
        posts[0]!.action_value,
        posts[0]!.content,
        posts[0]!.owner_id,
      ],
      ['project', 'status_update', statuses[3].id, 'All done!', f.ws.user.id],
    );
    const bad = await f.owner.post(`/v1/projects/${p.id}/status-update`, { statusId: eng.id, content: 'x' });
    problem(bad, 400, 'validation_failed');
    const stillOne = await f.database.db
      .selectFrom('posts')
      .select('id')
      .where('entity_id', '=', p.id)
      .execute();
    assert.equal(stillOne.length, 1, 'a failed status update posts nothing');
    problem(
      await f.owner.post(`/v1/projects/${p.id}/status-update`, { statusId: statuses[0].id }),
      400,
      'validation_failed',
    );
    // Content that is only white space is refused as a post's is, and changes nothing.
    for (const content of [' \n\t ', '']) {
      const blank = await f.owner.post(`/v1/projects/${p.id}/status-update`, {
        statusId: statuses[0].id,
        content,
      });
      const body = problem(blank, 400, 'validation_failed');
      assert.deepEqual(
        { ...body, requestId: undefined },
        {
          type: 'urn:cairn:problem:validation_failed',
          title: 'Validation failed',
          status: 400,
          detail: '/body/content must not be empty',
          code: 'validation_failed',
          errors: [{ path: '/body/content', message: 'must not be empty' }],
          requestId: undefined,
        },
      );
    }
    assert.equal((await f.owner.get(`/v1/projects/${p.id}`)).body.statusId, statuses[3].id);
    const stillOnePost = await f.database.db
      .selectFrom('posts')
      .select('id')
      .where('entity_id', '=', p.id)
      .execute();
    assert.equal(stillOnePost.length, 1);
  });
});

describe('GET /v1/projects/list', () => {
  test('newest first, every filter, offset or cursor, total only with includeTotal', async () => {
    const scoped = (await f.owner.post('/v1/teams', { name: 'Listing team' })).body;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = { name: `Listed ${i}`, teamId: scoped.id, ...(i % 2 ? { collectionId: roadmap.id } : {}) };
      made.push((await f.owner.post('/v1/projects', body)).body.id);
    }
    const first = await f.owner.get(
      `/v1/projects/list?teamId=${scoped.id}&limit=2&includeTotal=true&expand=none`,
    );
    assert.equal(first.body.total, 5);
    assert.deepEqual(
      first.body.data.map((p: { id: string }) => p.id),
      [made[4], made[3]],
    );
    const second = await f.owner.get(
      `/v1/projects/list?teamId=${scoped.id}&limit=2&cursor=${first.body.nextCursor}`,
    );
    assert.deepEqual(
      second.body.data.map((p: { id: string }) => p.id),
      [made[2], made[1]],
    );
    assert.equal('total' in second.body, false);
    const offset = await f.owner.get(`/v1/projects/list?teamId=${scoped.id}&offset=4&expand=none`);
    assert.deepEqual(
      offset.body.data.map((p: { id: string }) => p.id),
      [made[0]],
    );
    const col = await f.owner.get(
      `/v1/projects/list?teamId=${scoped.id}&collectionId=${roadmap.id}&includeTotal`,
    );
    assert.equal(col.body.total, 2);
    const st = await f.owner.get(
      `/v1/projects/list?teamId=${scoped.id}&statusId=${statuses[0].id}&ownerId=${f.ws.user.id}&includeTotal`,
    );
    assert.equal(st.body.total, 5);
    problem(await f.owner.get(`/v1/projects/list?cursor=${first.body.nextCursor}`), 400, 'invalid_cursor');
    problem(await f.owner.get('/v1/projects/list?ownerId=me'), 400, 'validation_failed');
  });
});

describe('GET /v1/projects/search', () => {
  test('name, description, owner name and team name, with matchMode', async () => {
    const sam = await f.newUser('member', 'Samira Owens');
    const a = (
      await f.owner.post('/v1/projects', { name: 'Quantum widget', teamId: ops.id, ownerId: sam.id })
    ).body;
    const b = (
      await f.owner.post('/v1/projects', {
        name: 'Plain gadget',
        teamId: eng.id,
        description: 'quantum inside',
      })
    ).body;
    const find = async (qs: string) =>
      (await f.owner.get(`/v1/projects/search?expand=none&${qs}`)).body.data.map((p: { id: string }) => p.id);
    assert.deepEqual(await find('name=quant'), [a.id]);
    assert.deepEqual(await find('description=quantum'), [b.id]);
    assert.deepEqual(await find('ownerName=samira'), [a.id]);
    assert.deepEqual(await find('name=quantum&teamName=operations'), [a.id]);
    assert.deepEqual(await find('name=quantum&description=quantum&matchMode=any'), [b.id, a.id]);
    assert.deepEqual(await find(`name=quantum&description=quantum&matchMode=any&teamId=${ops.id}`), [a.id]);
    // A project without an owner still matches on its name in any mode (ownerless is not "unknown").
    const ownerless = (
      await f.owner.post('/v1/projects', { name: 'Quantum orphan', teamId: ops.id, ownerId: null })
    ).body;
    assert.deepEqual(await find('name=orphan&ownerName=samira&matchMode=any'), [ownerless.id, a.id]);
    await f.owner.post(`/v1/projects/${ownerless.id}/archive`);
    const res = await f.owner.get(
      '/v1/projects/search?name=quantum&ownerName=samira&matchMode=any&expand=owner,teams',
    );
    assert.equal(res.body.total, 1);
    assert.deepEqual(res.body.data[0].owner.name, 'Samira Owens');
  });
});

describe('visibility and tenancy', () => {
  test('a project of a private team is invisible to outsiders; guests cannot change projects', async () => {
    const insider = await f.newUser('member');
    const outsider = await f.newUser('member');
    const closed = (
      await f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private', members: [{ id: insider.id }] })
    ).body;
    const p = (await insider.api.post('/v1/projects', { name: 'Vault plan', teamId: closed.id })).body;
    problem(await outsider.api.get(`/v1/projects/${p.id}`), 404, 'not_found');
    problem(await outsider.api.post('/v1/projects', { id: p.id, name: 'x' }), 404, 'not_found');
    problem(await outsider.api.post(`/v1/projects/${p.id}/archive`), 404, 'not_found');
    assert.equal((await outsider.api.get('/v1/projects/search?name=vault')).body.total, 0);
    assert.equal(
      (await outsider.api.get('/v1/projects/list?includeTotal&teamId=' + closed.id)).body.total,
      0,
    );
    assert.equal((await insider.api.get('/v1/projects/search?name=vault')).body.total, 1);
    // Spanning an open team makes it visible, but never the private team's id.
    await insider.api.post('/v1/projects', { id: p.id, teamIds: [closed.id, eng.id] });
    const seen = await outsider.api.get(`/v1/projects/${p.id}?expand=teams`);
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.teamIds, [eng.id]);
    assert.deepEqual(
      seen.body.teams.map((t: { id: string }) => t.id),
      [eng.id],
    );
    const guest = await f.newUser('guest');
    await f.owner.post('/v1/teams', {
      id: eng.id,
      members: [{ id: f.ws.user.id, role: 'owner' }, { id: guest.id }],
    });
    problem(
      await guest.api.post('/v1/projects', { name: 'Guest project', teamId: eng.id }),
      403,
      'forbidden',
    );
    problem(await guest.api.post('/v1/projects', { id: p.id, name: 'x' }), 403, 'forbidden');
  });

  test('another workspace sees none of these projects', async () => {
    const p = (await f.owner.post('/v1/projects', { name: 'Tenant project', teamId: eng.id })).body;
    const other = await f.newWorkspace('Projectless');
    problem(await other.owner.get(`/v1/projects/${p.id}`), 404, 'not_found');
    problem(await other.owner.get(`/v1/projects/${p.publicId}`), 404, 'not_found');
    assert.deepEqual((await other.owner.get('/v1/projects/list')).body.data, []);
    assert.equal((await other.owner.get('/v1/projects/search?name=tenant')).body.total, 0);
    const theirTeam = (await other.owner.post('/v1/teams', { name: 'Mine' })).body;
    problem(await other.owner.post('/v1/projects', { name: 'x', teamId: eng.id }), 400, 'validation_failed');
    problem(
      await other.owner.post('/v1/projects', { name: 'x', teamId: theirTeam.id, collectionId: roadmap.id }),
      400,
      'validation_failed',
    );
  });
});
