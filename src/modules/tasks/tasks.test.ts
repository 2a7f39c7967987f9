import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { advanceClock } from '../../clock.ts';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();

const team = (
  await f.owner.post('/v1/teams', {
    name: 'Engineering',
    taskLabels: [{ name: 'Bug' }, { name: 'Feature' }],
  })
).body;
const other = (await f.owner.post('/v1/teams', { name: 'Design', taskLabels: [{ name: 'UX' }] })).body;
const stage = (t: { taskStatuses: { id: string; stage: string }[] }, s: string) =>
  t.taskStatuses.find((x) => x.stage === s)!.id;
const project = (await f.owner.post('/v1/projects', { name: 'Launch', teamIds: [other.id, team.id] })).body;

describe('POST /v1/tasks (create)', () => {
  test('every field is stored and returned with its documented type', async () => {
    const res = await f.owner.post('/v1/tasks?includeMarkdown=true', {
      name: '  Write the docs ',
      teamId: team.id,
      description: 'Some **bold** words',
      dueDate: '2026-12-01T10:00:00+02:00',
      priority: true,
      visibility: 'workspace',
      assignedToId: f.ws.user.id,
      projectId: project.id,
      labelIds: [team.taskLabels[1].id, team.taskLabels[0].id],
    });
    assert.equal(res.status, 201);
    const t = res.body;
    assert.match(t.id, UUID_PATTERN);
    assert.equal(typeof t.publicId, 'number');
    assert.match(t.createdAt, ISO_PATTERN);
    assert.equal(t.createdAt, t.updatedAt);
    assert.deepEqual(
      {
        name: t.name,
        description: t.description,
        dueDate: t.dueDate,
        completedAt: t.completedAt,
        priority: t.priority,
        visibility: t.visibility,
        createdById: t.createdById,
        projectId: t.projectId,
        teamId: t.teamId,
        statusId: t.statusId,
        assignedToId: t.assignedToId,
        repeatId: t.repeatId,
        labelIds: t.labelIds,
        deletedAt: t.deletedAt,
      },
      {
        name: 'Write the docs',
        description: { html: '<p>Some <strong>bold</strong> words</p>', markdown: 'Some **bold** words' },
        dueDate: '2026-12-01T08:00:00.000Z',
        completedAt: null,
        priority: true,
        visibility: 'workspace',
        createdById: f.ws.user.id,
        projectId: project.id,
        teamId: team.id,
        statusId: stage(team, 'unstarted'),
        assignedToId: f.ws.user.id,
        repeatId: null,
        labelIds: [team.taskLabels[0].id, team.taskLabels[1].id],
        deletedAt: null,
      },
    );
    assert.deepEqual(t.status, {
      id: stage(team, 'unstarted'),
      name: 'Todo',
      stage: 'unstarted',
      color: '#e2e2e2',
    });
    assert.deepEqual(t.team, { id: team.id, name: 'Engineering', publicId: 'ENG' });
    assert.deepEqual(t.project, { id: project.id, name: 'Launch' });
    assert.deepEqual(t.assignee, { id: f.ws.user.id, name: 'Olive Owner', email: 'olive@acme.test' });
  });

  test("without teamId the team is the project's first; neither is 400", async () => {
    const res = await f.owner.post('/v1/tasks', { name: 'From project', projectId: project.id });
    assert.equal(res.status, 201);
    assert.equal(res.body.teamId, other.id);
    const none = problem(await f.owner.post('/v1/tasks', { name: 'Nowhere' }), 400, 'validation_failed');
    assert.equal(none.errors[0].path, '/body/teamId');
  });

  test('dueDate takes epoch milliseconds; description takes {html} and is sanitized', async () => {
    const res = await f.owner.post('/v1/tasks?includeMarkdown=1', {
      name: 'Sanitize',
      teamId: team.id,
      dueDate: 1795305600000,
      description: {
        html: '<p onclick="x()">Hi <a href="javascript:alert(1)">x</a><script>bad()</script></p>',
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.dueDate, '2026-11-22T00:00:00.000Z');
    assert.equal(res.body.description.html, '<p>Hi <a>x</a></p>');
    assert.equal(res.body.description.markdown, 'Hi x');
    const md = await f.owner.post('/v1/tasks?includeMarkdown=true', {
      name: 'Raw HTML in markdown',
      teamId: team.id,
      description: { markdown: 'ok <img src=x onerror=alert(1)> <script>x</script>' },
    });
    assert.ok(!md.body.description.html.includes('onerror'));
    assert.ok(!md.body.description.markdown.includes('<script>'));
    assert.ok(!md.body.description.markdown.includes('onerror'));
  });

  test('markdown appears only with includeMarkdown', async () => {
    const res = await f.owner.post('/v1/tasks', { name: 'No md', teamId: team.id, description: 'x' });
    assert.deepEqual(res.body.description, { html: '<p>x</p>' });
  });

  test('wrong types and unknown fields are 400 and create nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 1, teamId: team.id }, '/body/name'],
      [{ name: 'x', teamId: 'ENG' }, '/body/teamId'],
      [{ name: 'x', teamId: team.id, priority: 'yes' }, '/body/priority'],
      [{ name: 'x', teamId: team.id, dueDate: 'tomorrow' }, '/body/dueDate'],
      [{ name: 'x', teamId: team.id, dueDate: 1.5 }, '/body/dueDate'],
      [{ name: 'x', teamId: team.id, visibility: 'secret' }, '/body/visibility'],
      [{ name: 'x', teamId: team.id, labelIds: 'a' }, '/body/labelIds'],
      [{ name: 'x', teamId: team.id, assignedToId: 12 }, '/body/assignedToId'],
      [{ name: 'x', teamId: team.id, description: { text: 'x' } }, '/body/description'],
      [{ name: 'x', teamId: team.id, owner: 'me' }, '/body/owner'],
    ];
    const before = (await f.owner.get('/v1/tasks/search?expand=none')).body.total;
    for (const [body, path] of cases) {
      const res = problem(await f.owner.post('/v1/tasks', body), 400, 'validation_failed');
      assert.ok(
        res.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)} → ${JSON.stringify(res.errors)}`,
      );
    }
    assert.equal((await f.owner.get('/v1/tasks/search?expand=none')).body.total, before);
  });

  test("foreign ids are 400: another team's status or label, unknown users, teams and projects", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ statusId: stage(other, 'started') }, '/body/statusId'],
      [{ labelIds: [other.taskLabels[0].id] }, '/body/labelIds/0'],
      [{ assignedToId: '00000000-0000-4000-8000-000000000000' }, '/body/assignedToId'],
      [{ projectId: '00000000-0000-4000-8000-000000000000' }, '/body/projectId'],
    ];
    for (const [extra, path] of cases) {
      const res = problem(
        await f.owner.post('/v1/tasks', { name: 'x', teamId: team.id, ...extra }),
        400,
        'validation_failed',
      );
      assert.equal(res.errors[0].path, path);
    }
    const area = await f.owner.post('/v1/areas', { name: 'An Area', publicId: 'AREA' });
    problem(await f.owner.post('/v1/tasks', { name: 'x', teamId: area.body.id }), 400, 'validation_failed');
    const elsewhere = await f.newWorkspace('Elsewhere');
    const theirTeam = (await elsewhere.owner.post('/v1/teams', { name: 'Theirs' })).body;
    const theirProject = (
      await elsewhere.owner.post('/v1/projects', { name: 'Theirs', teamId: theirTeam.id })
    ).body;
    problem(await f.owner.post('/v1/tasks', { name: 'x', teamId: theirTeam.id }), 400, 'validation_failed');
    problem(
      await f.owner.post('/v1/tasks', { name: 'x', teamId: team.id, projectId: theirProject.id }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post('/v1/tasks', { name: 'x', teamId: team.id, assignedToId: elsewhere.ws.user.id }),
      400,
      'validation_failed',
    );
  });
});

describe('POST /v1/tasks (update)', () => {
  test('present fields replace, null clears, absent stay; updatedAt moves; by publicId too', async () => {
    const created = (
      await f.owner.post('/v1/tasks', {
        name: 'Edit me',
        teamId: team.id,
        dueDate: 1795305600000,
        projectId: project.id,
      })
    ).body;
    advanceClock(5);
    const res = await f.owner.post('/v1/tasks', {
      id: String(created.publicId),
      dueDate: null,
      priority: true,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, created.id);
    assert.equal(res.body.dueDate, null);
    assert.equal(res.body.priority, true);
    assert.equal(res.body.name, 'Edit me');
    assert.equal(res.body.projectId, project.id);
    assert.ok(res.body.updatedAt > created.updatedAt);
    assert.equal(res.body.createdAt, created.createdAt);
    problem(
      await f.owner.post('/v1/tasks', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }),
      404,
      'not_found',
    );
  });

  test('completedAt follows the stage of the status', async () => {
    const t = (await f.owner.post('/v1/tasks', { name: 'Finish', teamId: team.id })).body;
    const done = await f.owner.post('/v1/tasks', { id: t.id, statusId: stage(team, 'completed') });
    assert.match(done.body.completedAt, ISO_PATTERN);
    const again = await f.owner.post('/v1/tasks', { id: t.id, name: 'Finished' });
    assert.equal(again.body.completedAt, done.body.completedAt);
    const reopened = await f.owner.post('/v1/tasks', { id: t.id, statusId: stage(team, 'started') });
    assert.equal(reopened.body.completedAt, null);
    const born = await f.owner.post('/v1/tasks', {
      name: 'Born done',
      teamId: team.id,
      statusId: stage(team, 'completed'),
    });
    assert.equal(born.body.completedAt, born.body.createdAt);
  });

  test("moving to another team maps the status by stage and drops the old team's labels", async () => {
    const t = (
      await f.owner.post('/v1/tasks', {
        name: 'Mover',
        teamId: team.id,
        statusId: stage(team, 'started'),
        labelIds: [team.taskLabels[0].id],
      })
    ).body;
    const moved = await f.owner.post('/v1/tasks', { id: t.id, teamId: other.id });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.teamId, other.id);
    assert.equal(moved.body.statusId, stage(other, 'started'));
    assert.deepEqual(moved.body.labelIds, []);
    const given = await f.owner.post('/v1/tasks', {
      id: t.id,
      teamId: team.id,
      statusId: stage(other, 'backlog'),
    });
    assert.equal(problem(given, 400, 'validation_failed').errors[0].path, '/body/statusId');
  });

  test('a team status in use cannot be removed (409), an unused one can', async () => {
    const t = await f.owner.post('/v1/teams', { name: 'Statusy' });
    const inUse = stage(t.body, 'started');
    await f.owner.post('/v1/tasks', { name: 'Uses it', teamId: t.body.id, statusId: inUse });
    const keep = t.body.taskStatuses.filter((s: { id: string }) => s.id !== inUse);
    problem(await f.owner.post('/v1/teams', { id: t.body.id, taskStatuses: keep }), 409, 'conflict');
    const unused = t.body.taskStatuses.filter((s: { stage: string }) => s.stage !== 'canceled');
    assert.equal((await f.owner.post('/v1/teams', { id: t.body.id, taskStatuses: unused })).status, 200);
  });
});

describe('delete and restore', () => {
  test('DELETE is a soft delete (204, twice too); GET still returns it; update is 409; restore brings it back', async () => {
    const t = (await f.owner.post('/v1/tasks', { name: 'Ephemeral', teamId: team.id })).body;
    const del = await f.owner.delete(`/v1/tasks/${t.id}`);
    assert.equal(del.status, 204);
    assert.equal(del.body, '');
    assert.equal((await f.owner.delete(`/v1/tasks/${t.publicId}`)).status, 204);
    const got = await f.owner.get(`/v1/tasks/${t.id}`);
    assert.equal(got.status, 200);
    assert.match(got.body.deletedAt, ISO_PATTERN);
    problem(await f.owner.post('/v1/tasks', { id: t.id, name: 'zombie' }), 409, 'deleted');
    const restored = await f.owner.post(`/v1/tasks/${t.id}/restore?expand=none`);
    assert.equal(restored.status, 200);
    assert.equal(restored.body.deletedAt, null);
    assert.equal('status' in restored.body, false);
    problem(await f.owner.post(`/v1/tasks/${t.id}/restore`), 409, 'not_deleted');
    problem(await f.owner.delete('/v1/tasks/not-a-task'), 404, 'not_found');
  });
});

describe('publicId', () => {
  test('increases per workspace, and concurrent creates never share one', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        f.owner.post('/v1/tasks', { name: `Concurrent ${i}`, teamId: team.id }),
      ),
    );
    assert.ok(results.every((r) => r.status === 201));
    const ids = results.map((r) => r.body.publicId).sort((a, b) => a - b);
    assert.equal(new Set(ids).size, 25);
    assert.equal(ids[24] - ids[0], 24, 'consecutive: none skipped or reused');
    const fresh = await f.newWorkspace('Fresh');
    const theirTeam = (await fresh.owner.post('/v1/teams', { name: 'T' })).body;
    const first = await fresh.owner.post('/v1/tasks', { name: 'First', teamId: theirTeam.id });
    assert.equal(first.body.publicId, 1);
    const byPublic = await f.owner.get(`/v1/tasks/${ids[0]}`);
    assert.equal(byPublic.body.publicId, ids[0]);
  });
});

describe('visibility', () => {
  test('private tasks: creator, assignee, owners and admins only', async () => {
    const author = await f.newUser('member', 'Author');
    const assignee = await f.newUser('member', 'Assignee');
    const bystander = await f.newUser('member', 'Bystander');
    const admin = await f.newUser('admin', 'Admin');
    const t = (
      await author.api.post('/v1/tasks', {
        name: 'Secret plan',
        teamId: team.id,
        visibility: 'private',
        assignedToId: assignee.id,
      })
    ).body;
    for (const who of [author, assignee, admin])
      assert.equal((await who.api.get(`/v1/tasks/${t.id}`)).status, 200);
    problem(await bystander.api.get(`/v1/tasks/${t.id}`), 404, 'not_found');
    problem(await bystander.api.post('/v1/tasks', { id: t.id, name: 'x' }), 404, 'not_found');
    problem(await bystander.api.delete(`/v1/tasks/${t.id}`), 404, 'not_found');
    assert.equal((await bystander.api.get('/v1/tasks/search?name=secret')).body.total, 0);
    assert.equal((await assignee.api.get('/v1/tasks/search?name=secret')).body.total, 1);
    const batch = await bystander.api.post('/v1/tasks/batch', { tasks: [{ id: t.id, name: 'x' }] });
    assert.equal(batch.body.failed[0].code, 'not_found');
  });

  test('tasks of a private team: members only; its project expansion is null to outsiders', async () => {
    const member = await f.newUser('member', 'Insider');
    const outsider = await f.newUser('member', 'Outsider');
    const closed = (
      await f.owner.post('/v1/teams', {
        name: 'Skunkworks',
        privacy: 'private',
        members: [{ id: member.id }],
      })
    ).body;
    const hidden = (await f.owner.post('/v1/projects', { name: 'Hidden project', teamId: closed.id })).body;
    const t = (
      await member.api.post('/v1/tasks', { name: 'Skunk task', teamId: closed.id, projectId: hidden.id })
    ).body;
    problem(await outsider.api.get(`/v1/tasks/${t.id}`), 404, 'not_found');
    assert.equal((await outsider.api.get('/v1/tasks/search?name=skunk')).body.total, 0);
    assert.equal((await outsider.api.get('/v1/tasks/search?projectName=hidden')).body.total, 0);
    problem(await outsider.api.post('/v1/tasks', { name: 'x', teamId: closed.id }), 400, 'validation_failed');
    problem(await outsider.api.get(`/v1/projects/${hidden.id}`), 404, 'not_found');
    // A visible task in that hidden project shows the project as null to the outsider.
    const visible = (
      await member.api.post('/v1/tasks', { name: 'Open task', teamId: team.id, projectId: hidden.id })
    ).body;
    const seen = await outsider.api.get(`/v1/tasks/${visible.id}`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.project, null);
  });

  test('another workspace sees none of these tasks', async () => {
    const t = (await f.owner.post('/v1/tasks', { name: 'Tenant task', teamId: team.id })).body;
    const elsewhere = await f.newWorkspace('Tenant2');
    problem(await elsewhere.owner.get(`/v1/tasks/${t.id}`), 404, 'not_found');
    problem(await elsewhere.owner.get(`/v1/tasks/${t.publicId}`), 404, 'not_found');
    problem(await elsewhere.owner.post(`/v1/tasks/${t.id}/restore`), 404, 'not_found');
    assert.equal((await elsewhere.owner.get('/v1/tasks/search?name=tenant')).body.total, 0);
  });
});
