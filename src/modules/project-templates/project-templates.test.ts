import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const area = (await f.owner.post('/v1/areas', { name: 'Marketing', publicId: 'MKT' })).body;
const events = (await f.owner.post('/v1/areas', { name: 'Events', publicId: 'EVT' })).body;
const board = (await f.owner.post('/v1/areas', { name: 'Board', publicId: 'BRD', privacy: 'private' })).body;
const team = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;

async function template(body: Record<string, unknown>, as = f.owner) {
  const res = await as.post('/v1/project-templates', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('POST /v1/project-templates', () => {
  test('creates with every field', async () => {
    const t = await template({
      name: 'Campaign',
      description: 'A **campaign**',
      color: '#ff8800',
      icon: 'megaphone',
      ownedByAreaId: area.id,
      areaIds: [events.id, board.id],
      ownerId: member.id,
      dueDate: '2027-06-30',
      startDate: '2027-05-01',
      relativeDueDateCount: 6,
      relativeDueDateUnit: 'weeks',
      relativeDueDateDirection: 'after',
      relativeDueDateEventType: 'project_start',
      relativeStartDateCount: 1,
      relativeStartDateUnit: 'days',
      relativeStartDateDirection: 'after',
      relativeStartDateEventType: 'project_created',
    });
    assert.match(t.id, UUID_PATTERN);
    assert.match(t.createdAt, ISO_PATTERN);
    const ref = (g: { id: string; name: string; publicId: string }) => ({
      id: g.id,
      name: g.name,
      publicId: g.publicId,
    });
    assert.deepEqual(t, {
      id: t.id,
      publicId: t.publicId,
      name: 'Campaign',
      description: { html: '<p>A <strong>campaign</strong></p>' },
      color: '#ff8800',
      icon: 'megaphone',
      workspaceId: f.ws.workspace.id,
      ownedByAreaId: area.id,
      ownerId: member.id,
      dueDate: '2027-06-30',
      startDate: '2027-05-01',
      relativeDueDateCount: 6,
      relativeDueDateUnit: 'weeks',
      relativeDueDateDirection: 'after',
      relativeDueDateEventType: 'project_start',
      relativeStartDateCount: 1,
      relativeStartDateUnit: 'days',
      relativeStartDateDirection: 'after',
      relativeStartDateEventType: 'project_created',
      createdById: f.ws.user.id,
      createdAt: t.createdAt,
      updatedAt: t.createdAt,
      deletedAt: null,
      deletedById: null,
      ownedByArea: ref(area),
      areas: [ref(events), ref(board)],
      areaIds: [events.id, board.id],
    });
    // The member does not see the private Board area: it stays out of their view, and their update keeps it.
    const seen = await member.api.get(`/v1/project-templates/${t.publicId}`);
    assert.deepEqual(seen.body.areaIds, [events.id]);
    const updated = await member.api.post('/v1/project-templates', { id: t.id, areaIds: [], color: null });
    assert.deepEqual([updated.status, updated.body.areaIds, updated.body.color], [200, [], null]);
    assert.deepEqual((await f.owner.get(`/v1/project-templates/${t.id}`)).body.areaIds, [board.id]);
  });

  test('bad input is a 400 that changes nothing', async () => {
    const path = async (body: Record<string, unknown>) =>
      problem(await f.owner.post('/v1/project-templates', body), 400, 'validation_failed').errors[0].path;
    const before = (await f.owner.get('/v1/project-templates?includeDeleted=true&limit=100')).body.data
      .length;
    assert.equal(await path({ name: 'No area' }), '/body/ownedByAreaId');
    assert.equal(await path({ name: 'x', ownedByAreaId: team.id }), '/body/ownedByAreaId');
    assert.equal(await path({ name: 'x', ownedByAreaId: area.id, areaIds: [team.id] }), '/body/areaIds/0');
    assert.equal(
      await path({ name: 'x', ownedByAreaId: area.id, relativeDueDateUnit: 'years' }),
      '/body/relativeDueDateUnit',
    );
    const rel = { relativeDueDateCount: 1, relativeDueDateUnit: 'days', relativeDueDateDirection: 'after' };
    assert.equal(await path({ name: 'x', ownedByAreaId: area.id, ...rel }), '/body/relativeDueDateEventType');
    assert.equal(
      await path({ name: 'x', ownedByAreaId: area.id, ...rel, relativeDueDateEventType: 'task_created' }),
      '/body/relativeDueDateEventType',
    );
    assert.equal(
      await path({
        name: 'x',
        ownedByAreaId: area.id,
        ...rel,
        relativeDueDateEventType: 'project_start',
        relativeStartDateCount: 1,
        relativeStartDateUnit: 'days',
        relativeStartDateDirection: 'before',
        relativeStartDateEventType: 'project_due',
      }),
      '/body/relativeStartDateEventType',
    );
    assert.equal(
      await path({ name: 'x', ownedByAreaId: area.id, startDate: '2027-13-01' }),
      '/body/startDate',
    );
    const after = (await f.owner.get('/v1/project-templates?includeDeleted=true&limit=100')).body.data.length;
    assert.equal(after, before);
  });
});

describe('GET, list and DELETE', () => {
  test('filters by accessible area and owner area; soft delete with deletedById', async () => {
    const a = await template({ name: 'Offsite', ownedByAreaId: events.id, areaIds: [area.id] });
    await template({ name: 'Board pack', ownedByAreaId: board.id });
    const names = async (qs: string, as = member.api) =>
      (await as.get(`/v1/project-templates?${qs}`)).body.data.map((t: { name: string }) => t.name);
    assert.deepEqual(await names(`areaId=${area.id}`), ['Campaign', 'Offsite']);
    assert.deepEqual(await names(`ownedByAreaId=${events.id}`), ['Offsite']);
    assert.deepEqual(await names(`areaId=${board.id}`), []);
    assert.deepEqual(await names(`areaId=${board.id}`, f.owner), ['Campaign', 'Board pack']);
    assert.equal((await names('')).includes('Board pack'), false);
    assert.equal((await member.api.delete(`/v1/project-templates/${a.publicId}`)).status, 204);
    assert.equal((await member.api.delete(`/v1/project-templates/${a.id}`)).status, 204);
    const gone = await member.api.get(`/v1/project-templates/${a.id}`);
    assert.match(gone.body.deletedAt, ISO_PATTERN);
    assert.equal(gone.body.deletedById, member.id);
    assert.deepEqual(await names(`areaId=${area.id}`), ['Campaign']);
    assert.deepEqual(await names(`areaId=${area.id}&includeDeleted=true`), ['Campaign', 'Offsite']);
    problem(await member.api.post(`/v1/project-templates/${a.id}/create-project`, {}), 409, 'deleted');
    // A task template scoped to the deleted project template stays editable, and keeps its scope.
    const t0 = await template({ name: 'Short-lived', ownedByAreaId: area.id });
    const scoped = (
      await f.owner.post('/v1/task-templates', {
        name: 'Scoped',
        scopeType: 'project_template',
        scopeId: t0.id,
      })
    ).body;
    await f.owner.delete(`/v1/project-templates/${t0.id}`);
    const renamed = await f.owner.post('/v1/task-templates', { id: scoped.id, name: 'Scoped, renamed' });
    assert.deepEqual([renamed.status, renamed.body.scopeId, renamed.body.areaId], [200, t0.id, area.id]);
    problem(
      await f.owner.post('/v1/task-templates', { id: scoped.id, scopeId: t0.id }),
      400,
      'validation_failed',
    );
    problem(await member.api.post('/v1/project-templates', { id: a.id, name: 'Again' }), 409, 'deleted');
  });
});

describe('POST /v1/project-templates/{id}/create-project', () => {
  test('a project in the area with a task per scoped task template, dates resolved', async () => {
    const t = await template({
      name: 'Launch',
      description: 'Plan',
      ownedByAreaId: area.id,
      startDate: '2027-03-01',
      relativeDueDateCount: 4,
      relativeDueDateUnit: 'weeks',
      relativeDueDateDirection: 'after',
      relativeDueDateEventType: 'project_start',
    });
    const scoped = (body: Record<string, unknown>) =>
      f.owner.post('/v1/task-templates', { scopeType: 'project_template', scopeId: t.id, ...body });
    const post = await scoped({
      name: 'Write post',
      relativeDateCount: 2,
      relativeDateUnit: 'days',
      relativeDateDirection: 'before',
      relativeDateEventType: 'project_due',
    });
    assert.deepEqual([post.status, post.body.areaId, post.body.scopeId], [201, area.id, t.id]);
    await scoped({
      name: 'Kickoff',
      relativeDateCount: 0,
      relativeDateUnit: 'days',
      relativeDateDirection: 'after',
      relativeDateEventType: 'project_start',
    });
    await scoped({ name: 'Dropped', areaId: area.id }).then(async (r) =>
      f.owner.delete(`/v1/task-templates/${r.body.id}`),
    );
    problem(await scoped({ name: 'Elsewhere', areaId: events.id }), 400, 'validation_failed');

    const res = await f.owner.post(`/v1/project-templates/${t.publicId}/create-project`);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const p = res.body;
    assert.deepEqual(
      [p.name, p.areaId, p.area, p.startDate, p.dueDate, p.ownerId, p.description],
      [
        'Launch',
        area.id,
        { id: area.id, name: 'Marketing', publicId: 'MKT' },
        '2027-03-01T00:00:00.000Z',
        '2027-03-29T00:00:00.000Z',
        f.ws.user.id,
        { html: '<p>Plan</p>' },
      ],
    );
    for (const absent of ['teamIds', 'teams', 'collectionId', 'collection'])
      assert.equal(absent in p, false, absent);
    const tasks = await f.owner.get(`/v1/tasks/search?expand=none&projectId=${p.id}`);
    assert.deepEqual(
      tasks.body.data
        .map((x: { name: string; dueDate: string; areaId: string }) => [x.name, x.dueDate, x.areaId])
        .sort(),
      [
        ['Kickoff', '2027-03-01T00:00:00.000Z', area.id],
        ['Write post', '2027-03-27T00:00:00.000Z', area.id],
      ],
    );
    // One transaction wrote the project, its tasks and an event for each.
    const written = await f.database.db
      .selectFrom('events')
      .select(['type', 'entity_id'])
      .where('workspace_id', '=', f.ws.workspace.id)
      .where('created_at', '=', p.createdAt)
      .execute();
    assert.deepEqual(written.map((e) => e.type).sort(), ['project.created', 'task.created', 'task.created']);
    assert.ok(written.some((e) => e.entity_id === p.id));
    const read = await member.api.get(`/v1/projects/${p.id}?expand=teams,collection`);
    assert.deepEqual(
      [read.body.areaId, read.body.area.id, 'teamIds' in read.body, 'collection' in read.body],
      [area.id, area.id, false, false],
    );
    problem(await f.owner.post('/v1/projects', { id: p.id, teamId: team.id }), 400, 'validation_failed');
    const renamed = await member.api.post('/v1/projects?expand=none', { id: p.id, name: 'Launch 2' });
    assert.deepEqual([renamed.status, renamed.body.areaId], [200, area.id]);
  });

  test('body overrides; invisible templates are 404; guests cannot make projects', async () => {
    const t = await template({ name: 'Quarterly', ownedByAreaId: area.id });
    const res = await member.api.post(`/v1/project-templates/${t.id}/create-project?expand=owner`, {
      name: 'Q3 review',
      ownerId: null,
      startDate: '2027-07-01',
      dueDate: 1819756800000,
    });
    assert.equal(res.status, 201);
    assert.deepEqual(
      [res.body.name, res.body.owner, res.body.startDate, res.body.dueDate, 'status' in res.body],
      ['Q3 review', null, '2027-07-01T00:00:00.000Z', '2027-09-01T00:00:00.000Z', false],
    );
    const hidden = await template({ name: 'Secret', ownedByAreaId: board.id });
    problem(await member.api.post(`/v1/project-templates/${hidden.id}/create-project`, {}), 404, 'not_found');
    problem(await member.api.get(`/v1/project-templates/${hidden.id}`), 404, 'not_found');
    problem(
      await f.owner.post(`/v1/project-templates/${t.id}/create-project`, { teamId: team.id }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post(`/v1/project-templates/${t.id}/create-project?expand=teams`, {}),
      400,
      'validation_failed',
    );
    const guest = await f.newUser('guest', 'Gus Guest');
    await f.owner.post('/v1/areas', { id: area.id, members: [{ id: guest.id, role: 'member' }] });
    problem(await guest.api.post(`/v1/project-templates/${t.id}/create-project`, {}), 403, 'forbidden');
  });
});

describe('children of scoped task templates', () => {
  test('one in a hidden area is left out unreported; one in an archived area is skipped and reported', async () => {
    const retired = (await f.owner.post('/v1/areas', { name: 'Retired' })).body;
    const t = await template({ name: 'Roadshow', ownedByAreaId: area.id });
    const scoped = (
      await f.owner.post('/v1/task-templates', {
        name: 'Book halls',
        scopeType: 'project_template',
        scopeId: t.id,
      })
    ).body;
    const child = (body: Record<string, unknown>) =>
      f.owner.post('/v1/task-templates', { parentTaskTemplateId: scoped.id, ...body }).then((r) => r.body);
    await child({ name: 'Brief the board', areaId: board.id });
    const old = await child({ name: 'Ask the old team', areaId: retired.id });
    await child({ name: 'Print posters', areaId: events.id });
    await f.owner.post(`/v1/areas/${retired.id}/archive`);
    const res = await member.api.post(`/v1/project-templates/${t.id}/create-project?expand=none`, {});
    assert.deepEqual([res.status, res.headers['skipped-task-templates']], [201, old.id]);
    const made = await f.database.db
      .selectFrom('tasks')
      .select(['name', 'group_id'])
      .where('workspace_id', '=', f.ws.workspace.id)
      .where('project_id', '=', res.body.id)
      .orderBy('name')
      .execute();
    assert.deepEqual(
      made.map((t) => ({ ...t })),
      [
        { name: 'Book halls', group_id: area.id },
        { name: 'Print posters', group_id: events.id },
      ],
    );
  });
});

describe('dates outside the years 1 to 9999', () => {
  const rel = (which: 'Due' | 'Start', count: number, unit: string, direction: string, event: string) => ({
    [`relative${which}DateCount`]: count,
    [`relative${which}DateUnit`]: unit,
    [`relative${which}DateDirection`]: direction,
    [`relative${which}DateEventType`]: event,
  });
  const pathOf = (res: { status: number; body: unknown; headers: Record<string, unknown> }) =>
    problem(res as never, 400, 'validation_failed').errors[0].path;

  test('are refused when a template is made, naming its relative date', async () => {
    const before = (await f.owner.get('/v1/project-templates?includeDeleted=true&limit=100')).body.data
      .length;
    const made = (body: Record<string, unknown>) =>
      f.owner.post('/v1/project-templates', { name: 'x', ownedByAreaId: area.id, ...body });
    assert.equal(
      pathOf(await made({ startDate: '9999-12-20', ...rel('Due', 4, 'weeks', 'after', 'project_start') })),
      '/body/relativeDueDateCount',
    );
    assert.equal(
      pathOf(await made({ dueDate: '0001-01-10', ...rel('Start', 1, 'months', 'before', 'project_due') })),
      '/body/relativeStartDateCount',
    );
    const after = (await f.owner.get('/v1/project-templates?includeDeleted=true&limit=100')).body.data.length;
    assert.equal(after, before);
    // A task template scoped to it: against the dates a new project would get.
    const t = await template({ name: 'Year end', ownedByAreaId: area.id, dueDate: '9999-12-31' });
    const scoped = await f.owner.post('/v1/task-templates', {
      name: 'After the end',
      scopeType: 'project_template',
      scopeId: t.id,
      relativeDateCount: 1,
      relativeDateUnit: 'days',
      relativeDateDirection: 'after',
      relativeDateEventType: 'project_due',
    });
    assert.equal(pathOf(scoped), '/body/relativeDateCount');
  });

  test('are a 400 naming the body field when a project is made, and nothing is made', async () => {
    const t = await template({
      name: 'Long haul',
      ownedByAreaId: area.id,
      ...rel('Due', 4, 'weeks', 'after', 'project_start'),
    });
    const scoped = (name: string, event: string) =>
      f.owner.post('/v1/task-templates', {
        name,
        scopeType: 'project_template',
        scopeId: t.id,
        relativeDateCount: 2,
        relativeDateUnit: 'days',
        relativeDateDirection: 'after',
        relativeDateEventType: event,
      });
    assert.equal((await scoped('Debrief', 'project_due')).status, 201);
    const count = async (table: 'projects' | 'tasks') =>
      (
        await f.database.db
          .selectFrom(table)
          .select('id')
          .where('workspace_id', '=', f.ws.workspace.id)
          .execute()
      ).length;
    const before = [await count('projects'), await count('tasks')];
    const made = (body: Record<string, unknown>) =>
      f.owner.post(`/v1/project-templates/${t.id}/create-project?expand=none`, body);
    assert.equal(pathOf(await made({ startDate: '9999-12-20' })), '/body/dueDate');
    assert.equal(pathOf(await made({ startDate: '9999-01-01', dueDate: '9999-12-31' })), '/body/dueDate');
    assert.equal((await scoped('Kick off', 'project_start')).status, 201);
    assert.equal(pathOf(await made({ startDate: '9999-12-31', dueDate: '9999-12-01' })), '/body/startDate');
    assert.deepEqual([await count('projects'), await count('tasks')], before);
  });
});
