// What events say changed (previousAttributes), the markdown in their data, and where the feed starts
// (after=latest) and how it answers a position another database made.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCursors } from '../../http/cursor.ts';
import { type Client, problem, setup } from '../../test/helpers.ts';

const f = await setup();
const FULL = 'expand=all&includeMarkdown=true';

interface Item {
  id: string;
  type: string;
  data: { id: string } & Record<string, unknown>;
  previousAttributes?: Record<string, unknown> | null;
}

/** The current end of the stream. */
async function latest(as: Client = f.owner): Promise<string> {
  const res = await as.get('/v1/events?after=latest');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.nextCursor;
}

/**
 * Every event after `cursor`; with `want`, waits (up to 5 s) until there are that many: on PostgreSQL
 * the feed shows an event once every transaction older than it has ended, and other writers on the
 * same server can hold that back for a moment.
 */
async function since(cursor: string, want = 0): Promise<Item[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const items = await read(cursor);
    if (items.length >= want || Date.now() > deadline) return items;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function read(cursor: string, as: Client = f.owner): Promise<Item[]> {
  const items: Item[] = [];
  for (;;) {
    const res = await as.get(`/v1/events?limit=100&cursor=${cursor}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    items.push(...res.body.data);
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) return items;
  }
}

/** The one event of `cursor`'s run: asserts there is exactly one, of this type. */
async function only(cursor: string, type: string): Promise<Item> {
  const items = await since(cursor, 1);
  assert.deepEqual(
    items.map((i) => i.type),
    [type],
  );
  return items[0]!;
}

const team = (
  await f.owner.post('/v1/teams', {
    name: 'Changes',
    taskLabels: [{ name: 'Bug' }, { name: 'Feature' }, { name: 'Chore' }],
  })
).body;
const [bug, feature, chore] = team.taskLabels.map((l: { id: string }) => l.id) as string[];
const statusOf = (stage: string) => team.taskStatuses.find((s: { stage: string }) => s.stage === stage).id;

async function newTask(body: Record<string, unknown> = {}) {
  const res = await f.owner.post('/v1/tasks?expand=none', { name: 'Write it', teamId: team.id, ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return (await f.owner.get(`/v1/tasks/${res.body.id}?includeMarkdown=true&expand=none`)).body;
}

describe('previousAttributes', () => {
  test('task.updated: each changed field with its value before, as GET showed it', async () => {
    const before = await newTask({ description: 'Old **text**', labelIds: [chore, bug] });
    const from = await latest();
    const res = await f.owner.post('/v1/tasks', {
      id: before.id,
      name: 'Write it well',
      description: 'New text',
      statusId: statusOf('completed'),
      labelIds: [feature],
      priority: false, // unchanged: not listed
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const event = await only(from, 'task.updated');
    assert.deepEqual(event.previousAttributes, {
      name: 'Write it',
      description: { html: '<p>Old <strong>text</strong></p>', markdown: 'Old **text**' },
      completedAt: null,
      statusId: before.statusId,
      labelIds: [bug, chore],
      updatedAt: before.updatedAt,
    });
    assert.deepEqual(before.labelIds, [bug, chore]);
    // The payload's description carries the markdown beside the html.
    assert.deepEqual(event.data.description, { html: '<p>New text</p>', markdown: 'New text' });
    assert.deepEqual(event.data, (await f.owner.get(`/v1/tasks/${before.id}?${FULL}`)).body);
  });

  test('labels sent in another order, and an update that changes nothing, list only updatedAt', async () => {
    const before = await newTask({ labelIds: [bug, feature] });
    const from = await latest();
    await f.owner.post('/v1/tasks', { id: before.id, labelIds: [feature, bug], name: 'Write it' });
    const event = await only(from, 'task.updated');
    assert.deepEqual(event.previousAttributes, { updatedAt: before.updatedAt });
  });

  test('a move to another team, and the batch endpoint, say what they changed', async () => {
    const other = (await f.owner.post('/v1/teams', { name: 'Elsewhere' })).body;
    const before = await newTask({ labelIds: [bug], dueDate: '2026-12-01T00:00:00.000Z' });
    const second = await newTask();
    const from = await latest();
    const res = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [
        { id: before.id, teamId: other.id },
        { id: second.id, dueDate: '2026-12-24T00:00:00.000Z', assignedToId: f.ws.user.id },
        { id: second.id, statusId: 'not-a-status' },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.failed.length, 1);
    const items = await since(from, 2);
    assert.deepEqual(
      items.map((i) => [i.type, i.data.id]),
      [
        ['task.updated', before.id],
        ['task.updated', second.id],
      ],
    );
    const moved = (await f.owner.get(`/v1/tasks/${before.id}?expand=none`)).body;
    assert.deepEqual(items[0]!.previousAttributes, {
      teamId: team.id,
      statusId: before.statusId,
      labelIds: [bug],
      updatedAt: before.updatedAt,
    });
    assert.deepEqual(moved.labelIds, []);
    assert.deepEqual(items[1]!.previousAttributes, {
      dueDate: null,
      assignedToId: null,
      updatedAt: second.updatedAt,
    });
  });

  test('project.updated, document.updated, team.updated and area.updated', async () => {
    const other = (await f.owner.post('/v1/teams', { name: 'Partners' })).body;
    const project = (
      await f.owner.post('/v1/projects?expand=none&includeMarkdown=true', { name: 'Launch', teamId: team.id })
    ).body;
    const doc = (
      await f.owner.post('/v1/documents?expand=none&includeMarkdown=true', {
        name: 'Notes',
        teamId: team.id,
        description: 'First',
      })
    ).body;
    const area = (await f.owner.post('/v1/areas?expand=none', { name: 'Ops', description: 'Runs it' })).body;
    const from = await latest();
    await f.owner.post('/v1/projects', { id: project.id, name: 'Relaunch', teamIds: [team.id, other.id] });
    await f.owner.post('/v1/documents', { id: doc.id, description: 'Second' });
    const renamed = (
      await f.owner.post('/v1/teams', { id: other.id, name: 'Partners Two', color: other.color })
    ).body;
    await f.owner.post(`/v1/teams/${other.id}/archive`);
    await f.owner.post('/v1/areas', { id: area.id, description: null });
    const items = await since(from, 5);
    assert.deepEqual(
      items.map((i) => i.type),
      ['project.updated', 'document.updated', 'team.updated', 'team.updated', 'area.updated'],
    );
    const [p, d, t, archived, a] = items as [Item, Item, Item, Item, Item];
    assert.deepEqual(p.previousAttributes, {
      name: 'Launch',
      slug: project.slug,
      teamIds: [team.id],
      updatedAt: project.updatedAt,
    });
    assert.deepEqual(d.previousAttributes, {
      description: { html: '<p>First</p>', markdown: 'First' },
      lastEditedAt: doc.lastEditedAt,
      updatedAt: doc.updatedAt,
    });
    assert.deepEqual(t.previousAttributes, { name: 'Partners', updatedAt: other.updatedAt });
    assert.deepEqual(archived.previousAttributes, { archivedAt: null, updatedAt: renamed.updatedAt });
    assert.deepEqual(a.previousAttributes, { description: 'Runs it', updatedAt: area.updatedAt });
    // Every field of data survives the answer's serialization: the same as GET with every expansion.
    assert.deepEqual(p.data, (await f.owner.get(`/v1/projects/${project.id}?${FULL}`)).body);
    assert.deepEqual(d.data, (await f.owner.get(`/v1/documents/${doc.id}?${FULL}`)).body);
    assert.deepEqual(a.data, (await f.owner.get(`/v1/areas/${area.id}?expand=all`)).body);
  });

  test('events other than *.updated have no previousAttributes', async () => {
    const from = await latest();
    const task = await newTask();
    await f.owner.delete(`/v1/tasks/${task.id}`);
    const project = (await f.owner.post('/v1/projects?expand=none', { name: 'Shelf', teamId: team.id })).body;
    await f.owner.post(`/v1/projects/${project.id}/archive`);
    const items = await since(from, 4);
    assert.deepEqual(
      items.map((i) => i.type),
      ['task.created', 'task.deleted', 'project.created', 'project.archived'],
    );
    for (const item of items) assert.equal('previousAttributes' in item, false, item.type);
  });
});

describe('markdown in the payload', () => {
  test("templates' events carry the description's markdown, as their GET with includeMarkdown", async () => {
    const area = (await f.owner.post('/v1/areas', { name: 'Templates' })).body;
    const from = await latest();
    const description = { markdown: 'Check the **photos**' };
    const taskTemplate = (
      await f.owner.post('/v1/task-templates', { name: 'Inspect', areaId: area.id, description })
    ).body;
    const projectTemplate = (
      await f.owner.post('/v1/project-templates', { name: 'Move in', ownedByAreaId: area.id, description })
    ).body;
    const items = await since(from, 2);
    assert.deepEqual(
      items.map((i) => [i.type, i.data.id]),
      [
        ['task_template.created', taskTemplate.id],
        ['project_template.created', projectTemplate.id],
      ],
    );
    const html = '<p>Check the <strong>photos</strong></p>';
    for (const [item, path] of [
      [items[0]!, `/v1/task-templates/${taskTemplate.id}`],
      [items[1]!, `/v1/project-templates/${projectTemplate.id}`],
    ] as const) {
      assert.deepEqual(item.data.description, { html, markdown: 'Check the **photos**' });
      assert.deepEqual(item.data, (await f.owner.get(`${path}?includeMarkdown=true`)).body);
      assert.deepEqual((await f.owner.get(path)).body.description, { html });
    }
    const listed = await f.owner.get(`/v1/task-templates?areaId=${area.id}&includeMarkdown=true`);
    assert.deepEqual(listed.body.data[0].description, { html, markdown: 'Check the **photos**' });
    const projects = await f.owner.get(`/v1/project-templates?areaId=${area.id}&includeMarkdown=true`);
    assert.deepEqual(projects.body.data[0].description, { html, markdown: 'Check the **photos**' });
  });
});

describe('where the feed starts, and positions of another database', () => {
  test('after=latest: an empty page at the end; its cursor reads only what comes next', async () => {
    await newTask();
    const res = await f.owner.get('/v1/events?after=latest&type=task.created');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'hasMore', 'nextCursor']);
    assert.deepEqual(res.body.data, []);
    assert.equal(res.body.hasMore, false);
    assert.deepEqual(await since(res.body.nextCursor), []);
    const task = await newTask({ name: 'After now' });
    const items = await since(res.body.nextCursor, 1);
    assert.deepEqual(
      items.map((i) => [i.type, i.data.id]),
      [['task.created', task.id]],
    );
    problem(
      await f.owner.get(`/v1/events?after=latest&cursor=${res.body.nextCursor}`),
      400,
      'validation_failed',
    );
  });

  test('a position made by another database is 400 naming after=<last event id>, which travels', async () => {
    // What a cursor of this workspace looks like when another installation (another secret) made it.
    const foreign = createCursors('another installation').encode(
      JSON.stringify(['events', f.ws.workspace.id]),
      [0, 12],
    );
    for (const param of ['cursor', 'after']) {
      const body = problem(await f.owner.get(`/v1/events?${param}=${foreign}`), 400, 'invalid_cursor');
      assert.match(body.detail, /after=<the id of the last event you processed>/);
      assert.equal(body.errors[0].path, `/query/${param}`);
    }
    const from = await latest();
    const task = await newTask();
    const [event] = await since(from, 1);
    await f.owner.post('/v1/tasks', { id: task.id, name: 'Carried on' });
    let res = await f.owner.get(`/v1/events?after=${event!.id}`);
    for (let i = 0; i < 100 && res.body.data.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await f.owner.get(`/v1/events?after=${event!.id}`);
    }
    assert.deepEqual(
      res.body.data.map((i: Item) => i.type),
      ['task.updated'],
    );
  });
});
