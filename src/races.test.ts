// Races, run many times (a bounded number) and judged by the end state: no 5xx, the search index
// matches the rows, totals match walks, and exactly one event per real change. SQLite serializes
// writers, so these mostly bite on PostgreSQL, where each request has its own connection; they run on
// both.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setup } from './test/helpers.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Racing', publicId: 'RACE' })).body;

async function create(name: string) {
  const res = await f.owner.post('/v1/tasks?expand=none', { name, teamId: team.id });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; publicId: number };
}

async function events(type: string, entityId: string): Promise<number> {
  const row = await f.database.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('workspace_id', '=', f.ws.workspace.id)
    .where('type', '=', type)
    .where('entity_id', '=', entityId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function walk(qs: string): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const res = await f.owner.get(
      `/v1/tasks/search?expand=none&limit=100&${qs}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    assert.equal(res.status, 200);
    total = res.body.total;
    ids.push(...res.body.data.map((t: { id: string }) => t.id));
    cursor = res.body.nextCursor;
  } while (cursor);
  return { ids, total };
}

describe('5. parallel batches over the same tasks', () => {
  test('opposite orders never deadlock for the client: every batch is 200 and applied', async () => {
    const a = await create('Batch race alpha');
    const b = await create('Batch race beta');
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const pair = i % 2 === 0 ? [a, b] : [b, a];
          return f.owner.post('/v1/tasks/batch?expand=none', {
            tasks: pair.map((t) => ({ id: t.id, description: `round ${round} batch ${i}` })),
          });
        }),
      );
      for (const res of answers) {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.failed, [], JSON.stringify(res.body.failed));
        assert.equal(res.body.succeeded.length, 2);
      }
    }
    assert.equal(await events('task.updated', a.id), 100);
  });
});

describe('7. concurrent changes keep the search index in step with the rows', () => {
  test('a rename racing a description change leaves the name findable', async () => {
    const task = await create('kumquat start');
    for (let i = 0; i < 10; i++) {
      const names = [`kumquat${i}x`, `kumquat${i}y`];
      const answers = await Promise.all([
        f.owner.post('/v1/tasks?expand=none', { id: task.id, name: names[0] }),
        f.owner.post('/v1/tasks?expand=none', { id: task.id, description: `d${i}` }),
        f.owner.post('/v1/tasks?expand=none', { id: task.id, name: names[1] }),
      ]);
      for (const res of answers) assert.equal(res.status, 200, JSON.stringify(res.body));
      const now = (await f.owner.get(`/v1/tasks/${task.id}?expand=none`)).body;
      const byName = await walk(`name=${now.name}`);
      assert.deepEqual(byName.ids, [task.id], `"${now.name}" finds the task`);
      const byText = await walk(`description=${now.description.html.replace(/<\/?p>/g, '')}`);
      assert.deepEqual(byText.ids, [task.id]);
      const stale = names.find((n) => n !== now.name)!;
      assert.deepEqual(
        await walk(`name=${stale}`),
        { ids: [], total: 0 },
        `"${stale}" is gone from the index`,
      );
    }
  });
});

describe('8. state changes happen once', () => {
  test('parallel deletes move the total by one and write one event', async () => {
    for (let round = 0; round < 5; round++) {
      const task = await create(`Doomed ${round}`);
      const before = (await walk('')).total;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => f.owner.delete(`/v1/tasks/${task.id}`)),
      );
      for (const res of answers) assert.equal(res.status, 204);
      const after = await walk('');
      assert.equal(after.total, before - 1);
      assert.equal(after.total, after.ids.length, 'total matches a walk');
      assert.equal(await events('task.deleted', task.id), 1);
    }
  });

  test('parallel restores: one 200, the rest 409 not_deleted, one event, totals match walks', async () => {
    const tasks = await Promise.all([0, 1, 2, 3, 4].map((i) => create(`Revived ${i}`)));
    for (const t of tasks) assert.equal((await f.owner.delete(`/v1/tasks/${t.id}`)).status, 204);
    const answers = await Promise.all(
      tasks.flatMap((t) =>
        Array.from({ length: 3 }, () => f.owner.post(`/v1/tasks/${t.id}/restore?expand=none`)),
      ),
    );
    const codes = answers.map((r) => r.status).sort();
    assert.deepEqual(codes, [...Array(5).fill(200), ...Array(10).fill(409)]);
    for (const t of tasks) assert.equal(await events('task.restored', t.id), 1);
    for (const flags of ['', 'includeDeleted=true']) {
      const all = await walk(flags);
      assert.equal(all.total, all.ids.length, `total matches a walk (${flags || 'live'})`);
    }
  });

  test('an update racing a delete is applied before it or refused with 409 deleted', async () => {
    for (let round = 0; round < 8; round++) {
      const task = await create(`Contested ${round}`);
      const [update, removal] = await Promise.all([
        f.owner.post('/v1/tasks?expand=none', { id: task.id, name: `Contested ${round} renamed` }),
        f.owner.delete(`/v1/tasks/${task.id}`),
      ]);
      assert.equal(removal.status, 204);
      assert.ok(update.status === 200 || update.status === 409, JSON.stringify(update.body));
      const final = (await f.owner.get(`/v1/tasks/${task.id}?expand=none`)).body;
      if (update.status === 200) assert.ok(update.body.updatedAt <= final.deletedAt, 'the update came first');
      else assert.equal(update.body.code, 'deleted');
    }
  });

  test('parallel archives and unarchives of a project: one event each, the rest as documented', async () => {
    const project = (await f.owner.post('/v1/projects', { name: 'Archive race', teamId: team.id })).body;
    const archives = await Promise.all(
      Array.from({ length: 8 }, () => f.owner.post(`/v1/projects/${project.id}/archive`)),
    );
    for (const res of archives) assert.equal(res.status, 200);
    const unarchives = await Promise.all(
      Array.from({ length: 8 }, () => f.owner.post(`/v1/projects/${project.id}/unarchive`)),
    );
    assert.deepEqual(unarchives.map((r) => r.status).sort(), [200, ...Array(7).fill(409)]);
    assert.equal(await events('project.archived', project.id), 1);
    assert.equal(await events('project.unarchived', project.id), 1);
  });
});

describe('8b. documents, posts and templates change state once', () => {
  test('parallel document deletes and restores: one event each; an update racing a delete is 200 or 409', async () => {
    const doc = (await f.owner.post('/v1/documents?expand=none', { name: 'Race doc', teamId: team.id })).body;
    const deletes = await Promise.all(
      Array.from({ length: 8 }, () => f.owner.delete(`/v1/documents/${doc.id}`)),
    );
    for (const res of deletes) assert.equal(res.status, 204);
    const restores = await Promise.all(
      Array.from({ length: 8 }, () => f.owner.post(`/v1/documents/${doc.id}/restore?expand=none`)),
    );
    assert.deepEqual(restores.map((r) => r.status).sort(), [200, ...Array(7).fill(409)]);
    assert.equal(await events('document.deleted', doc.id), 1);
    assert.equal(await events('document.restored', doc.id), 1);
    const [update, removal] = await Promise.all([
      f.owner.post('/v1/documents?expand=none', { id: doc.id, name: 'Race doc renamed' }),
      f.owner.delete(`/v1/documents/${doc.id}`),
    ]);
    assert.equal(removal.status, 204);
    assert.ok(update.status === 200 || update.body.code === 'deleted', JSON.stringify(update.body));
  });

  test('parallel reactions: one row per user and reaction, one 201 and the rest 200', async () => {
    const task = await create('Reacted');
    const post = (await f.owner.post('/v1/posts', { entityType: 'task', entityId: task.id, content: 'Hi' }))
      .body;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => f.owner.post(`/v1/posts/${post.id}/reactions`, { reaction: 'tada' })),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((r) => r.body.id)).size, 1);
    const read = await f.owner.get(`/v1/posts/${post.id}?expand=reactions`);
    assert.equal(read.body.reactions.length, 1);
  });

  test('a project from a template made twice at once: two projects, each with its own tasks', async () => {
    const area = (await f.owner.post('/v1/areas', { name: 'Race area', publicId: 'RAREA' })).body;
    const plan = (await f.owner.post('/v1/project-templates', { name: 'Race plan', ownedByAreaId: area.id }))
      .body;
    for (const name of ['One', 'Two', 'Three'])
      await f.owner.post('/v1/task-templates', { name, scopeType: 'project_template', scopeId: plan.id });
    const made = await Promise.all(
      Array.from({ length: 4 }, () =>
        f.owner.post(`/v1/project-templates/${plan.id}/create-project?expand=none`, {}),
      ),
    );
    for (const res of made) assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(new Set(made.map((r) => r.body.slug)).size, 4, 'distinct slugs');
    for (const res of made) assert.equal((await walk(`projectId=${res.body.id}`)).total, 3);
  });
});

describe('9. counters of live tasks per team and project stay exact under concurrent changes', () => {
  test('parallel moves, deletes, restores and creates: every filtered total matches its walk', async () => {
    const other = (await f.owner.post('/v1/teams', { name: 'Pit crew', publicId: 'PIT' })).body;
    const p1 = (await f.owner.post('/v1/projects', { name: 'Lap one', teamId: team.id })).body;
    const p2 = (await f.owner.post('/v1/projects', { name: 'Lap two', teamId: other.id })).body;
    const tasks = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const res = await f.owner.post('/v1/tasks?expand=none', {
          name: `Counted lap ${i}`,
          teamId: team.id,
          projectId: p1.id,
        });
        assert.equal(res.status, 201);
        return res.body as { id: string };
      }),
    );
    const moves = [
      { teamId: other.id, projectId: p2.id },
      { teamId: team.id, projectId: p1.id },
      { teamId: other.id, projectId: null },
      { teamId: team.id, projectId: p2.id },
    ];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        // Each task is moved several ways at once, deleted and restored while it moves.
        ...tasks.flatMap((t, i) =>
          moves.map((_, j) =>
            f.owner.post('/v1/tasks?expand=none', { id: t.id, ...moves[(i + j + round) % 4]! }),
          ),
        ),
        ...tasks.slice(0, 3).map((t) => f.owner.delete(`/v1/tasks/${t.id}`)),
        ...tasks.slice(0, 3).map((t) => f.owner.post(`/v1/tasks/${t.id}/restore?expand=none`)),
        f.owner.post('/v1/tasks/batch?expand=none', {
          tasks: [
            { name: `Lap batch ${round}`, teamId: other.id, projectId: p2.id },
            { id: tasks[5]!.id, teamId: other.id, projectId: p1.id },
          ],
        }),
      ]);
      for (const res of answers) assert.ok(res.status < 500, JSON.stringify(res.body));
      for (const qs of [
        `teamId=${team.id}`,
        `teamId=${other.id}`,
        `projectId=${p1.id}`,
        `projectId=${p2.id}`,
      ]) {
        const { ids, total } = await walk(qs);
        assert.equal(total, ids.length, `${qs}, round ${round}`);
      }
    }
  });
});
