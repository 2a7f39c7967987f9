import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const guest = await f.newUser('guest', 'Gus Guest');
const area = (
  await f.owner.post('/v1/areas', {
    name: 'People Ops',
    publicId: 'POPS',
    taskLabels: [{ name: 'Onboarding', color: '#00aa00' }, { name: 'HR' }],
  })
).body;
const hidden = (await f.owner.post('/v1/areas', { name: 'Board', privacy: 'private' })).body;
const team = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const statuses = (await f.owner.get(`/v1/areas/${area.id}?expand=taskStatuses`)).body.taskStatuses;
const labels = (await f.owner.get(`/v1/areas/${area.id}?expand=taskLabels`)).body.taskLabels;
const project = (await f.owner.post('/v1/projects?expand=none', { name: 'Hiring', teamId: team.id })).body;

async function template(body: Record<string, unknown>, as = f.owner) {
  const res = await as.post('/v1/task-templates', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('POST /v1/task-templates', () => {
  test('creates with every field', async () => {
    const t = await template({
      name: ' Welcome pack ',
      areaId: area.id,
      description: 'Send the **pack**',
      priority: true,
      visibility: 'private',
      statusId: statuses[1].id,
      assignedToId: member.id,
      projectId: project.id,
      labelIds: [labels[1].id, labels[0].id],
      dueDate: '2026-12-24',
      startDate: '2026-12-01',
      relativeDateCount: 3,
      relativeDateUnit: 'days',
      relativeDateDirection: 'after',
      relativeDateEventType: 'task_created',
    });
    assert.match(t.id, UUID_PATTERN);
    assert.match(t.createdAt, ISO_PATTERN);
    assert.deepEqual(t, {
      id: t.id,
      publicId: t.publicId,
      name: 'Welcome pack',
      description: { html: '<p>Send the <strong>pack</strong></p>' },
      priority: true,
      visibility: 'private',
      statusId: statuses[1].id,
      statusStage: statuses[1].stage,
      assignedToId: member.id,
      projectId: project.id,
      areaId: area.id,
      workspaceId: f.ws.workspace.id,
      scopeType: 'area',
      scopeId: area.id,
      parentTaskTemplateId: null,
      dueDate: '2026-12-24',
      startDate: '2026-12-01',
      relativeDateCount: 3,
      relativeDateUnit: 'days',
      relativeDateDirection: 'after',
      relativeDateEventType: 'task_created',
      createdById: f.ws.user.id,
      createdAt: t.createdAt,
      updatedAt: t.createdAt,
      deletedAt: null,
      labels: [
        { id: labels[1].id, name: 'HR', color: labels[1].color },
        { id: labels[0].id, name: 'Onboarding', color: '#00aa00' },
      ],
      area: { id: area.id, name: 'People Ops', publicId: 'POPS' },
    });
    const read = await member.api.get(`/v1/task-templates/${t.publicId}`);
    assert.deepEqual([read.status, read.body], [200, t]);
  });

  test('updates: given fields replace, null clears, a stage alone stands for the status', async () => {
    const t = await template({
      name: 'Laptop',
      areaId: area.id,
      statusId: statuses[0].id,
      dueDate: '2027-01-05',
    });
    const res = await member.api.post('/v1/task-templates', {
      id: t.id,
      statusStage: 'started',
      dueDate: null,
      relativeDateCount: 1,
      relativeDateUnit: 'weeks',
      relativeDateDirection: 'before',
      relativeDateEventType: 'project_due',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.statusId, res.body.statusStage, res.body.dueDate, res.body.relativeDateUnit, res.body.name],
      [null, 'started', null, 'weeks', 'Laptop'],
    );
  });

  test('bad input is a 400 that changes nothing', async () => {
    const path = async (body: Record<string, unknown>) =>
      problem(await f.owner.post('/v1/task-templates', body), 400, 'validation_failed').errors[0].path;
    const before = (await f.owner.get('/v1/task-templates?includeDeleted=true&limit=100')).body.data.length;
    assert.equal(await path({ name: 'No area' }), '/body/areaId');
    assert.equal(await path({ name: 'Team', areaId: team.id }), '/body/areaId');
    assert.equal(
      await path({ name: 'Hidden?', areaId: '00000000-0000-4000-8000-000000000000' }),
      '/body/areaId',
    );
    assert.equal(
      await path({ name: 'x', areaId: area.id, relativeDateUnit: 'fortnights' }),
      '/body/relativeDateUnit',
    );
    assert.equal(await path({ name: 'x', areaId: area.id, relativeDateCount: 2 }), '/body/relativeDateUnit');
    assert.equal(await path({ name: 'x', areaId: area.id, dueDate: '2025-02-29' }), '/body/dueDate');
    assert.equal(
      await path({ name: 'x', areaId: area.id, dueDate: '2025-02-01T00:00:00Z' }),
      '/body/dueDate',
    );
    const teamStatus = (await f.owner.get(`/v1/teams/${team.id}?expand=taskStatuses`)).body.taskStatuses[0]
      .id;
    assert.equal(await path({ name: 'x', areaId: area.id, statusId: teamStatus }), '/body/statusId');
    assert.equal(
      await path({ name: 'x', areaId: area.id, labelIds: [labels[0].id, teamStatus] }),
      '/body/labelIds/1',
    );
    assert.equal(await path({ name: 'x', areaId: area.id, colour: 'red' }), '/body/colour');
    assert.equal(await path({ name: 'x', scopeType: 'project_template' }), '/body/scopeId');
    const parent = await template({ name: 'Parent', areaId: area.id });
    const child = await template({ name: 'Child', areaId: area.id, parentTaskTemplateId: parent.id });
    assert.equal(
      await path({ name: 'Grandchild', areaId: area.id, parentTaskTemplateId: child.id }),
      '/body/parentTaskTemplateId',
    );
    const after = (await f.owner.get('/v1/task-templates?includeDeleted=true&limit=100')).body.data.length;
    assert.equal(after, before + 2);
    problem(await guest.api.post('/v1/task-templates', { name: 'x', areaId: area.id }), 403, 'forbidden');
  });
});

describe('GET, list and DELETE', () => {
  test('filters, soft delete and visibility', async () => {
    const a = await template({ name: 'Filter A', areaId: area.id, projectId: project.id });
    const secret = await template({ name: 'Secret', areaId: hidden.id });
    const list = async (qs: string, as = member.api) => {
      const res = await as.get(`/v1/task-templates?limit=100&${qs}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.map((t: { name: string }) => t.name);
    };
    assert.deepEqual(await list(`projectId=${project.id}`), ['Welcome pack', 'Filter A']);
    assert.deepEqual(await list(`areaId=${hidden.id}`), []);
    assert.deepEqual(await list(`areaId=${hidden.id}`, f.owner), ['Secret']);
    assert.deepEqual(await list(`scopeId=${hidden.id}`, f.owner), ['Secret']);
    assert.equal((await member.api.get('/v1/task-templates?limit=1')).body.data.length, 1);
    problem(await member.api.get(`/v1/task-templates/${secret.id}`), 404, 'not_found');
    problem(await member.api.post(`/v1/task-templates/${secret.id}/create-task`, {}), 404, 'not_found');
    problem(await member.api.delete(`/v1/task-templates/${secret.id}`), 404, 'not_found');
    assert.equal((await member.api.delete(`/v1/task-templates/${a.publicId}`)).status, 204);
    assert.equal((await member.api.delete(`/v1/task-templates/${a.id}`)).status, 204);
    assert.deepEqual(await list(`projectId=${project.id}`), ['Welcome pack']);
    assert.deepEqual(await list(`projectId=${project.id}&includeDeleted=true`), ['Welcome pack', 'Filter A']);
    assert.match((await member.api.get(`/v1/task-templates/${a.id}`)).body.deletedAt, ISO_PATTERN);
    problem(await member.api.post('/v1/task-templates', { id: a.id, name: 'Back?' }), 409, 'deleted');
    problem(await member.api.post(`/v1/task-templates/${a.id}/create-task`, {}), 409, 'deleted');
    problem(await member.api.get('/v1/task-templates?limit=101'), 400, 'validation_failed');
  });
});

describe('POST /v1/task-templates/{id}/create-task', () => {
  test("an empty body takes the template's values; the task is the area variant everywhere", async () => {
    const t = await template({
      name: 'Order badge',
      areaId: area.id,
      description: '**Photo** needed',
      priority: true,
      statusId: statuses[2].id,
      assignedToId: member.id,
      projectId: project.id,
      labelIds: [labels[0].id],
      relativeDateCount: 2,
      relativeDateUnit: 'days',
      relativeDateDirection: 'after',
      relativeDateEventType: 'task_created',
    });
    await template({ name: 'Badge photo', areaId: area.id, parentTaskTemplateId: t.id });
    const res = await f.owner.post(`/v1/task-templates/${t.publicId}/create-task?includeMarkdown=true`, {});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const task = res.body;
    const created = Date.parse(task.createdAt);
    assert.equal(task.dueDate, new Date(created + 2 * 86_400_000).toISOString());
    assert.deepEqual(
      {
        name: task.name,
        areaId: task.areaId,
        teamId: task.teamId,
        team: task.team,
        area: task.area,
        priority: task.priority,
        statusId: task.statusId,
        assignedToId: task.assignedToId,
        projectId: task.projectId,
        labelIds: task.labelIds,
        description: task.description,
        status: task.status.id,
        project: task.project,
      },
      {
        name: 'Order badge',
        areaId: area.id,
        teamId: undefined,
        team: undefined,
        area: { id: area.id, name: 'People Ops', publicId: 'POPS' },
        priority: true,
        statusId: statuses[2].id,
        assignedToId: member.id,
        projectId: project.id,
        labelIds: [labels[0].id],
        description: { html: '<p><strong>Photo</strong> needed</p>', markdown: '**Photo** needed' },
        status: statuses[2].id,
        project: { id: project.id, name: 'Hiring' },
      },
    );
    const read = await member.api.get(`/v1/tasks/${task.id}?expand=team`);
    assert.deepEqual([read.body.areaId, 'teamId' in read.body, read.body.area.id], [area.id, false, area.id]);
    const found = await f.owner.get(`/v1/tasks/search?expand=none&projectId=${project.id}&name=badge`);
    assert.deepEqual(found.body.data.map((x: { name: string }) => x.name).sort(), [
      'Badge photo',
      'Order badge',
    ]);
    assert.equal(
      found.body.data.every((x: { areaId?: string; teamId?: string }) => x.areaId === area.id && !x.teamId),
      true,
    );
    const batch = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [{ id: task.id, priority: false }],
    });
    assert.equal(batch.body.succeeded[0].areaId, area.id);
    problem(await f.owner.post('/v1/tasks', { id: task.id, teamId: team.id }), 400, 'validation_failed');
    const moved = await f.owner.post('/v1/tasks?expand=none', { id: task.id, statusId: statuses[0].id });
    assert.deepEqual([moved.status, moved.body.statusId], [200, statuses[0].id]);
  });

  test('body fields override; relative dates follow the project; bad overrides are 400', async () => {
    const dated = (
      await f.owner.post('/v1/projects?expand=none', {
        name: 'Dated',
        teamId: team.id,
        startDate: '2027-03-01',
        dueDate: '2027-03-31',
      })
    ).body;
    const t = await template({
      name: 'Retro',
      areaId: area.id,
      relativeDateCount: 1,
      relativeDateUnit: 'months',
      relativeDateDirection: 'before',
      relativeDateEventType: 'project_due',
    });
    const res = await f.owner.post(`/v1/task-templates/${t.id}/create-task?expand=none`, {
      projectId: dated.id,
    });
    assert.deepEqual([res.status, res.body.dueDate], [201, '2027-02-28T00:00:00.000Z']);
    // No body at all is an empty body.
    const noProject = await f.owner.post(`/v1/task-templates/${t.id}/create-task?expand=none`);
    assert.deepEqual([noProject.status, noProject.body.name, noProject.body.dueDate], [201, 'Retro', null]);
    const over = await f.owner.post(`/v1/task-templates/${t.id}/create-task?expand=assignee,status`, {
      name: 'Retro for Q1',
      assignedToId: member.id,
      dueDate: '2027-04-01',
      statusId: statuses[3].id,
      description: 'Bring *notes*',
    });
    assert.equal(over.status, 201);
    assert.deepEqual(
      [
        over.body.name,
        over.body.assignee.id,
        over.body.dueDate,
        over.body.status.stage,
        over.body.description.html,
      ],
      ['Retro for Q1', member.id, '2027-04-01T00:00:00.000Z', 'completed', '<p>Bring <em>notes</em></p>'],
    );
    assert.match(over.body.completedAt, ISO_PATTERN);
    const teamStatus = (await f.owner.get(`/v1/teams/${team.id}?expand=taskStatuses`)).body.taskStatuses[0]
      .id;
    problem(
      await f.owner.post(`/v1/task-templates/${t.id}/create-task`, { statusId: teamStatus }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post(`/v1/task-templates/${t.id}/create-task`, { teamId: team.id }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post(`/v1/task-templates/${t.id}/create-task?expand=team`, {}),
      400,
      'validation_failed',
    );
    problem(await f.owner.post('/v1/task-templates/999999/create-task', {}), 404, 'not_found');
    await f.owner.post(`/v1/areas/${area.id}/archive`);
    problem(await f.owner.post(`/v1/task-templates/${t.id}/create-task`, {}), 409, 'conflict');
    await f.owner.post(`/v1/areas/${area.id}/unarchive`);
  });
});
