// The rules templates share with what they make (docs/templates.md): children only where the caller
// could make a task, dates within the years 1 to 9999, and the status a template shows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { problem, setup } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const area = (await f.owner.post('/v1/areas', { name: 'People Ops', publicId: 'POPS' })).body;
const hidden = (await f.owner.post('/v1/areas', { name: 'Board', privacy: 'private' })).body;
const team = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const project = (await f.owner.post('/v1/projects?expand=none', { name: 'Hiring', teamId: team.id })).body;

async function template(body: Record<string, unknown>, as = f.owner) {
  const res = await as.post('/v1/task-templates', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('child templates in other areas', () => {
  /** Names of the tasks stored in a group, whoever may see them. */
  const tasksIn = async (groupId: string) =>
    (
      await f.database.db
        .selectFrom('tasks')
        .select('name')
        .where('workspace_id', '=', f.ws.workspace.id)
        .where('group_id', '=', groupId)
        .orderBy('name')
        .execute()
    ).map((t) => t.name);

  test('a child in an area the caller cannot see is left out, unreported', async () => {
    const parent = await template({ name: 'Open parent', areaId: area.id });
    await template({
      name: 'Hidden child',
      areaId: hidden.id,
      description: 'Board minutes',
      parentTaskTemplateId: parent.id,
    });
    const res = await member.api.post(`/v1/task-templates/${parent.id}/create-task?expand=none`, {});
    assert.deepEqual(
      [res.status, res.body.name, res.headers['skipped-task-templates']],
      [201, 'Open parent', undefined],
    );
    assert.deepEqual(await tasksIn(hidden.id), []);
    // Whoever sees the child's area gets its task.
    const own = await f.owner.post(`/v1/task-templates/${parent.id}/create-task?expand=none`, {});
    assert.equal(own.status, 201);
    assert.deepEqual(await tasksIn(hidden.id), ['Hidden child']);
  });

  test('a child in an archived area is skipped, and its id reported', async () => {
    const old = (await f.owner.post('/v1/areas', { name: 'Old office' })).body;
    const parent = await template({ name: 'Move desks', areaId: area.id });
    const child = await template({ name: 'Return keys', areaId: old.id, parentTaskTemplateId: parent.id });
    const sibling = await template({ name: 'Label boxes', areaId: area.id, parentTaskTemplateId: parent.id });
    assert.equal((await f.owner.post(`/v1/areas/${old.id}/archive`)).status, 200);
    const key = { 'idempotency-key': 'move-desks-1' };
    const res = await member.api.post(`/v1/task-templates/${parent.id}/create-task?expand=none`, {}, key);
    assert.deepEqual([res.status, res.headers['skipped-task-templates']], [201, child.id]);
    // A retry is answered with the same header.
    const again = await member.api.post(`/v1/task-templates/${parent.id}/create-task?expand=none`, {}, key);
    assert.deepEqual(
      [again.status, again.headers['idempotent-replayed'], again.headers['skipped-task-templates']],
      [201, 'true', child.id],
    );
    assert.deepEqual(await tasksIn(old.id), []);
    const made = await f.owner.get(`/v1/tasks/search?expand=none&name=${encodeURIComponent('Label boxes')}`);
    assert.deepEqual(
      made.body.data.map((t: { name: string }) => t.name),
      [sibling.name],
    );
  });

  test("a child's project the caller cannot see counts as none: the task goes into the parent's", async () => {
    const secretTeam = (await f.owner.post('/v1/teams', { name: 'Legal', privacy: 'private' })).body;
    const secret = (
      await f.owner.post('/v1/projects?expand=none', { name: 'Lawsuit', teamId: secretTeam.id })
    ).body;
    const parent = await template({ name: 'Contract', areaId: area.id, projectId: project.id });
    await template({
      name: 'Sign contract',
      areaId: area.id,
      projectId: secret.id,
      parentTaskTemplateId: parent.id,
    });
    const res = await member.api.post(`/v1/task-templates/${parent.id}/create-task?expand=none`, {});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const found = await f.owner.get(
      `/v1/tasks/search?expand=none&name=${encodeURIComponent('Sign contract')}`,
    );
    assert.deepEqual(
      found.body.data.map((t: { projectId: string }) => t.projectId),
      [project.id],
    );
  });
});

describe('attaching a child', () => {
  // SQLite serializes writers; on PostgreSQL the two requests run at once, each on its connection.
  test('two attaches at once never nest two levels: the parent is locked while checked', async () => {
    for (let round = 0; round < 8; round++) {
      const [a, b, c] = await Promise.all(
        ['A', 'B', 'C'].map((n) => template({ name: `Nest ${round}${n}`, areaId: area.id })),
      );
      const results = await Promise.all([
        f.owner.post('/v1/task-templates', { id: a.id, parentTaskTemplateId: b.id }),
        f.owner.post('/v1/task-templates', { id: b.id, parentTaskTemplateId: c.id }),
      ]);
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 400], JSON.stringify(results.map((r) => r.body)));
      const loser = results.find((r) => r.status === 400)!;
      assert.equal(problem(loser, 400, 'validation_failed').errors[0].path, '/body/parentTaskTemplateId');
    }
  });
});

describe('relative dates outside the years 1 to 9999', () => {
  const relative = (count: number, unit: string, direction: string, event: string) => ({
    relativeDateCount: count,
    relativeDateUnit: unit,
    relativeDateDirection: direction,
    relativeDateEventType: event,
  });
  const lastDay = async (name: string, dates: Record<string, string>) =>
    (await f.owner.post('/v1/projects?expand=none', { name, teamId: team.id, ...dates })).body;
  const templateCount = async () =>
    (await f.owner.get('/v1/task-templates?includeDeleted=true&limit=100')).body.data.length;

  test("are refused when the template is made, against its project's dates, naming relativeDateCount", async () => {
    const end = await lastDay('End of time', { dueDate: '9999-12-31', startDate: '0001-01-10' });
    const before = await templateCount();
    const path = async (body: Record<string, unknown>) =>
      problem(
        await f.owner.post('/v1/task-templates', { name: 'x', areaId: area.id, ...body }),
        400,
        'validation_failed',
      ).errors[0].path;
    assert.equal(
      await path({ projectId: end.id, ...relative(2, 'days', 'after', 'project_due') }),
      '/body/relativeDateCount',
    );
    assert.equal(
      await path({ projectId: end.id, ...relative(1, 'months', 'before', 'project_start') }),
      '/body/relativeDateCount',
    );
    // Changing the project of a template with such a date is checked the same way.
    const t = await template({
      name: 'Wrap up',
      areaId: area.id,
      ...relative(2, 'days', 'after', 'project_due'),
    });
    assert.equal(
      problem(
        await f.owner.post('/v1/task-templates', { id: t.id, projectId: end.id }),
        400,
        'validation_failed',
      ).errors[0].path,
      '/body/relativeDateCount',
    );
    assert.equal(await templateCount(), before + 1);
  });

  test('are a 400 naming the field when a task is made, never an empty due date', async () => {
    const end = await lastDay('Far away', { dueDate: '9999-12-30', startDate: '0001-01-10' });
    const t = await template({
      name: 'Follow up',
      areaId: area.id,
      ...relative(2, 'days', 'after', 'project_due'),
    });
    const early = await template({
      name: 'Prepare',
      areaId: area.id,
      ...relative(1, 'months', 'before', 'project_start'),
    });
    const taskCount = async () =>
      (
        await f.database.db
          .selectFrom('tasks')
          .select('id')
          .where('workspace_id', '=', f.ws.workspace.id)
          .execute()
      ).length;
    const tasksBefore = await taskCount();
    const made = (id: string, body: Record<string, unknown>) =>
      f.owner.post(`/v1/task-templates/${id}/create-task?expand=none`, body);
    const pathOf = (res: Awaited<ReturnType<typeof made>>) =>
      problem(res, 400, 'validation_failed').errors[0].path;
    assert.equal(pathOf(await made(t.id, { projectId: end.id })), '/body/dueDate');
    assert.equal(pathOf(await made(early.id, { projectId: end.id })), '/body/dueDate');
    // A child's date moves from the project its task goes into: projectId names it.
    const parent = await template({ name: 'Close out', areaId: area.id });
    await template({
      name: 'Archive files',
      areaId: area.id,
      parentTaskTemplateId: parent.id,
      ...relative(1, 'weeks', 'after', 'project_due'),
    });
    assert.equal(pathOf(await made(parent.id, { projectId: end.id })), '/body/projectId');
    assert.equal(await taskCount(), tasksBefore);
    // The body's own dueDate stands in for the template's.
    const given = await made(t.id, { projectId: end.id, dueDate: '9999-12-31' });
    assert.deepEqual([given.status, given.body.dueDate], [201, '9999-12-31T00:00:00.000Z']);
  });
});

describe('the status a template shows', () => {
  const studio = async (name: string) => {
    const a = (
      await f.owner.post('/v1/areas', {
        name,
        taskStatuses: [
          { name: 'Idea', stage: 'backlog' },
          { name: 'Todo', stage: 'unstarted' },
          { name: 'Drafting', stage: 'started' },
          { name: 'Editing', stage: 'started' },
          { name: 'Done', stage: 'completed' },
        ],
      })
    ).body;
    const statuses = (await f.owner.get(`/v1/areas/${a.id}?expand=taskStatuses`)).body.taskStatuses;
    return { a, statuses };
  };
  const keep = (list: { id: string; name: string; stage: string }[]) =>
    list.map((s) => ({ id: s.id, name: s.name, stage: s.stage }));
  const shown = async (id: string) => {
    const one = (await f.owner.get(`/v1/task-templates/${id}`)).body;
    const listed = (await f.owner.get(`/v1/task-templates?limit=100&areaId=${one.areaId}`)).body.data.find(
      (t: { id: string }) => t.id === id,
    );
    assert.deepEqual([listed.statusId, listed.statusStage], [one.statusId, one.statusStage]);
    return [one.statusId, one.statusStage];
  };
  const made = async (id: string) => {
    const task = (await f.owner.post(`/v1/task-templates/${id}/create-task?expand=status`, {})).body;
    return [task.statusId, task.status.stage];
  };

  test('a status its area removed: the template shows what create-task uses', async () => {
    const { a, statuses: st } = await studio('Studio');
    const draft = await template({ name: 'Draft', areaId: a.id, statusId: st[2].id });
    const ship = await template({ name: 'Ship', areaId: a.id, statusId: st[4].id });
    // Drafting goes (Editing is still started); Done, the only completed status, goes too.
    const update = await f.owner.post('/v1/areas', { id: a.id, taskStatuses: keep([st[0], st[1], st[3]]) });
    assert.equal(update.status, 200, JSON.stringify(update.body));
    assert.deepEqual(await shown(draft.id), [null, 'started']);
    assert.deepEqual(await made(draft.id), [st[3].id, 'started']);
    assert.deepEqual(await shown(ship.id), [null, 'unstarted']);
    assert.deepEqual(await made(ship.id), [st[1].id, 'unstarted']);
  });

  test('a status whose stage the area changed: kept, with its stage now, through an update', async () => {
    const { a, statuses: st } = await studio('Newsroom');
    const draft = await template({ name: 'Draft', areaId: a.id, statusId: st[2].id });
    const moved = keep(st).map((s) => (s.id === st[2].id ? { ...s, stage: 'completed' } : s));
    assert.equal((await f.owner.post('/v1/areas', { id: a.id, taskStatuses: moved })).status, 200);
    assert.deepEqual(await shown(draft.id), [st[2].id, 'completed']);
    const renamed = await f.owner.post('/v1/task-templates', { id: draft.id, name: 'Final draft' });
    assert.deepEqual([renamed.body.statusId, renamed.body.statusStage], [st[2].id, 'completed']);
    assert.deepEqual(await made(draft.id), [st[2].id, 'completed']);
  });
});
