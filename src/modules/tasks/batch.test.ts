// POST /v1/tasks/batch.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { onPostgres, problem, setup, taskHelpers } from '../../test/helpers.ts';

const f = await setup();
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const ops = (await f.owner.post('/v1/teams', { name: 'Operations' })).body;
const rocket = (await f.owner.post('/v1/projects', { name: 'Rocket Launch', teamId: eng.id })).body;

const { create, search, ids } = taskHelpers(f.owner);

const lunch = await create({ name: 'Order lunch', teamId: ops.id });

describe('POST /v1/tasks/batch', () => {
  test('each entry stands alone; results keep submission order; failures echo the entry', async () => {
    const entries = [
      { name: 'Batch one', teamId: eng.id, dueDate: 1795305600000 },
      { name: 42 },
      { name: 'Batch two', teamId: eng.id, statusId: '00000000-0000-4000-8000-000000000000' },
      { id: lunch.id, name: 'Order a big lunch' },
      { id: '00000000-0000-4000-8000-000000000000', name: 'missing' },
      { name: 'Batch three', teamId: ops.id, surprise: true },
      { name: 'Batch four', projectId: rocket.id },
    ];
    const res = await f.owner.post('/v1/tasks/batch?expand=team', { tasks: entries });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.succeeded.map((t: { name: string }) => t.name),
      ['Batch one', 'Order a big lunch', 'Batch four'],
    );
    assert.equal(res.body.succeeded[0].dueDate, '2026-11-22T00:00:00.000Z');
    assert.equal(res.body.succeeded[0].team.id, eng.id);
    assert.deepEqual(
      res.body.failed.map((x: { task: unknown; code: string; index: number }) => [x.task, x.code, x.index]),
      [
        [entries[1], 'validation_failed', 1],
        [entries[2], 'validation_failed', 2],
        [entries[4], 'not_found', 4],
        [entries[5], 'validation_failed', 5],
      ],
    );
    assert.equal(
      res.body.failed[1].error,
      `/statusId not a status of the task's team, "Engineering" (${eng.publicId})`,
    );
    assert.ok(
      res.body.failed.every((x: { error: string }) => typeof x.error === 'string' && x.error.length > 0),
    );
    assert.deepEqual(await ids('name=batch+two'), []);
  });

  test('over 100 entries, or a body that is not {tasks: [...]}, is 400 and changes nothing', async () => {
    const before = (await search('name=overflow')).total;
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `Overflow ${i}`, teamId: eng.id }));
    problem(await f.owner.post('/v1/tasks/batch', { tasks: many }), 400, 'validation_failed');
    problem(await f.owner.post('/v1/tasks/batch', [{ name: 'x' }]), 400, 'validation_failed');
    problem(await f.owner.post('/v1/tasks/batch', { tasks: [], extra: 1 }), 400, 'validation_failed');
    problem(await f.owner.post('/v1/tasks/batch', { tasks: ['x'] }), 400, 'validation_failed');
    assert.equal((await search('name=overflow')).total, before);
    const hundred = await f.owner.post('/v1/tasks/batch?expand=none', { tasks: many.slice(0, 100) });
    assert.equal(hundred.body.succeeded.length, 100);
  });

  test('a create that passes its checks but fails when written fails alone; the rest of its run is written', async () => {
    // A trigger refuses one name: the run's one multi-row insert fails, and the run is written again
    // entry by entry. The entry after the update starts a new run.
    const refuse = onPostgres
      ? [
          sql`create function refuse_boom() returns trigger language plpgsql as
              $$ begin if new.name = 'Boom' then raise exception 'refused'; end if; return new; end $$`,
          sql`create trigger refuse_boom before insert on tasks for each row execute function refuse_boom()`,
        ]
      : [
          sql`create trigger refuse_boom before insert on tasks when new.name = 'Boom'
              begin select raise(abort, 'refused'); end`,
        ];
    for (const statement of refuse) await statement.execute(f.database.db);
    try {
      const entries = [
        { name: 'Run one', teamId: eng.id },
        { name: 'Boom', teamId: eng.id },
        { name: 'Run two', teamId: eng.id },
        { id: lunch.id, name: 'Order a bigger lunch' },
        { name: 'Run three', teamId: ops.id },
      ];
      const res = await f.owner.post('/v1/tasks/batch?expand=none', { tasks: entries });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.succeeded.map((t: { name: string }) => t.name),
        ['Run one', 'Run two', 'Order a bigger lunch', 'Run three'],
      );
      assert.deepEqual(
        res.body.failed.map((x: { task: unknown; code: string; index: number }) => [x.task, x.code, x.index]),
        [[entries[1], 'internal', 1]],
      );
      const made = res.body.succeeded.filter((t: { name: string }) => t.name.startsWith('Run'));
      const publicIds = made.map((t: { publicId: number }) => t.publicId);
      assert.deepEqual(publicIds, [publicIds[0], publicIds[0] + 1, publicIds[0] + 2]);
      assert.deepEqual(await ids('name=boom'), []);
      assert.equal((await search('name=run')).total, 3);
      const events = await f.database.db
        .selectFrom('events')
        .select('entity_id')
        .where('type', '=', 'task.created')
        .where(
          'entity_id',
          'in',
          made.map((t: { id: string }) => t.id),
        )
        .execute();
      assert.equal(events.length, 3);
    } finally {
      await sql`drop trigger refuse_boom${onPostgres ? sql` on tasks` : sql``}`.execute(f.database.db);
      if (onPostgres) await sql`drop function refuse_boom()`.execute(f.database.db);
    }
  });

  test('tasks created together come newest first by id', async () => {
    const res = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [1, 2, 3].map((i) => ({ name: `Trio ${i}`, teamId: eng.id })),
    });
    const made = res.body.succeeded;
    assert.equal(new Set(made.map((t: { updatedAt: string }) => t.updatedAt)).size, 1);
    const found = await search('name=trio');
    const byRule = [...made].sort((a, b) => (a.id < b.id ? 1 : -1)).map((t: { id: string }) => t.id);
    assert.deepEqual(
      found.data.map((t: { id: string }) => t.id),
      byRule,
    );
  });
});
