// Races that a constraint would refuse, run many times: the answer is the one the sequential case
// gives (a 409 or a 400 with its code and field), never a 5xx, and the same on both databases. SQLite
// serializes writers, so there these are the sequential case itself; on PostgreSQL each request has
// its own connection and the removal checks and the derived values only hold because of locks
// (docs/reliability.md, "Concurrent changes").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { onPostgres, problem, type Response, setup } from './test/helpers.ts';

const f = await setup();
// SQLite gives the sequential answer by construction: a few rounds show it is the same one.
const ROUNDS = onPostgres ? 9 : 3;
const WRITERS = 8;

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * WRITERS requests started a few milliseconds apart, and the removal among them at another place
 * each round: some writers read before the removal and write after it, which is the window.
 */
async function race(round: number, writer: () => Promise<Response>, removal: () => Promise<Response>) {
  const step = 4;
  const writes = Array.from({ length: WRITERS }, (_, i) => later(i * step).then(writer));
  const removed = await later((round % WRITERS) * step + step / 2).then(removal);
  const written = await Promise.all(writes);
  if (process.env.RACE_TRACE) console.log(round, removed.status, written.map((r) => r.status).join());
  return { removed, written };
}

function fieldError(res: Response, path: string) {
  assert.equal(problem(res, 400, 'validation_failed').errors[0].path, path, JSON.stringify(res.body));
}

type Entry = { id: string; name: string; stage?: string };

async function group(kind: 'teams' | 'areas', name: string) {
  const res = await f.owner.post(`/v1/${kind}`, {
    name,
    taskStatuses: [
      { name: 'Todo', stage: 'unstarted' },
      { name: 'Doomed', stage: 'started' },
    ],
    taskLabels: [{ name: 'Keep' }, { name: 'Doomed' }],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const [keepStatus, doomedStatus] = res.body.taskStatuses as Entry[];
  const [keepLabel, doomedLabel] = res.body.taskLabels as Entry[];
  return {
    id: res.body.id as string,
    doomedStatus: doomedStatus!.id,
    doomedLabel: doomedLabel!.id,
    removeStatus: () =>
      f.owner.post(`/v1/${kind}`, {
        id: res.body.id,
        taskStatuses: [{ id: keepStatus!.id, name: 'Todo', stage: 'unstarted' }],
      }),
    removeLabel: () =>
      f.owner.post(`/v1/${kind}`, { id: res.body.id, taskLabels: [{ id: keepLabel!.id, name: 'Keep' }] }),
  };
}

describe('10. a status or label removed while tasks and templates are made with it', () => {
  test('tasks with the status: the removal is 409 in use and every create 201, or 200 and every create 400', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const team = await group('teams', `Status race ${round}`);
      const { removed, written } = await race(
        round,
        () =>
          f.owner.post('/v1/tasks?expand=none', {
            name: 'Raced',
            teamId: team.id,
            statusId: team.doomedStatus,
          }),
        team.removeStatus,
      );
      if (removed.status === 200) for (const res of written) fieldError(res, '/body/statusId');
      else {
        assert.match(problem(removed, 409, 'conflict').detail, /in use/);
        for (const res of written) assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    }
  });

  test('tasks with the label: the removal is 200; a create is 201 (the label then gone) or 400', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const team = await group('teams', `Label race ${round}`);
      const { removed, written } = await race(
        round,
        () =>
          f.owner.post('/v1/tasks?expand=none', {
            name: 'Raced',
            teamId: team.id,
            labelIds: [team.doomedLabel],
          }),
        team.removeLabel,
      );
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      for (const res of written) {
        if (res.status !== 201) fieldError(res, '/body/labelIds/0');
        else {
          const task = await f.owner.get(`/v1/tasks/${res.body.id}?expand=none`);
          assert.deepEqual(task.body.labelIds, []);
        }
      }
    }
  });

  test('task templates with the label: the removal is 200; a create is 201 or 400', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const area = await group('areas', `Template race ${round}`);
      const { removed, written } = await race(
        round,
        () =>
          f.owner.post('/v1/task-templates', {
            name: 'Raced',
            areaId: area.id,
            labelIds: [area.doomedLabel],
          }),
        area.removeLabel,
      );
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      for (const res of written) if (res.status !== 201) fieldError(res, '/body/labelIds/0');
    }
  });

  test('tasks made from a template with the status and label: every create 201, the removal as the tasks say', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const area = await group('areas', `From template race ${round}`);
      const template = await f.owner.post('/v1/task-templates', {
        name: 'Source',
        areaId: area.id,
        statusId: area.doomedStatus,
        labelIds: [area.doomedLabel],
      });
      assert.equal(template.status, 201, JSON.stringify(template.body));
      const remove = round % 2 === 0 ? area.removeStatus : area.removeLabel;
      const { removed, written } = await race(
        round,
        () => f.owner.post(`/v1/task-templates/${template.body.id}/create-task?expand=none`, {}),
        remove,
      );
      for (const res of written) assert.equal(res.status, 201, JSON.stringify(res.body));
      // A status a task uses cannot go; a template's missing status or label is left out of the task.
      const withStatus = written.filter((res) => res.body.statusId === area.doomedStatus).length;
      if (remove === area.removeLabel) assert.equal(removed.status, 200, JSON.stringify(removed.body));
      else if (removed.status === 200) assert.equal(withStatus, 0);
      else {
        assert.match(problem(removed, 409, 'conflict').detail, /in use/);
        assert.equal(withStatus, WRITERS);
      }
    }
  });
});

describe('11. positions and derived codes are never shared', () => {
  test('parallel project statuses without a position get distinct positions after the others', async () => {
    const before = (await f.owner.get('/v1/project-statuses')).body.data as { position: number }[];
    const last = Math.max(...before.map((s) => s.position));
    for (let round = 0; round < ROUNDS; round++) {
      const made = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          f.owner.post('/v1/project-statuses', { name: `Stage ${round}.${i}` }),
        ),
      );
      for (const res of made) assert.equal(res.status, 201, JSON.stringify(res.body));
      const positions = made.map((res) => res.body.position as number).sort((a, b) => a - b);
      const first = last + 1 + round * WRITERS;
      assert.deepEqual(
        positions,
        Array.from({ length: WRITERS }, (_, i) => first + i),
      );
    }
  });

  test('parallel teams and areas with the same derived publicId: all 201, distinct codes', async () => {
    // Every round derives SN (Same Name): SN, SN2 … SN8, then SN9 … SN16, as one writer after another.
    for (let round = 0; round < ROUNDS; round++) {
      const made = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          f.owner.post(i % 2 ? '/v1/areas' : '/v1/teams', { name: 'Same Name' }),
        ),
      );
      for (const res of made) assert.equal(res.status, 201, JSON.stringify(res.body));
      const codes = made.map((res) => res.body.publicId as string).sort();
      const numbers = Array.from({ length: WRITERS }, (_, i) => round * WRITERS + i + 1);
      assert.deepEqual(codes, numbers.map((n) => (n === 1 ? 'SN' : `SN${n}`)).sort());
    }
  });

  test('parallel teams with the same given publicId: one 201, the rest 409 conflict', async () => {
    const made = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        f.owner.post('/v1/teams', { name: `Given ${i}`, publicId: 'GIVEN' }),
      ),
    );
    assert.equal(made.filter((res) => res.status === 201).length, 1);
    for (const res of made.filter((r) => r.status !== 201))
      assert.match(problem(res, 409, 'conflict').detail, /already used/);
  });

  test('parallel projects and documents with the same name: all 201, distinct slugs', async () => {
    const team = (await f.owner.post('/v1/teams', { name: 'Slugs', publicId: 'SLUG' })).body;
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['projects', 'documents']) {
        const made = await Promise.all(
          Array.from({ length: WRITERS }, () =>
            f.owner.post(`/v1/${kind}?expand=none`, { name: `Same slug ${round}`, teamId: team.id }),
          ),
        );
        for (const res of made) assert.equal(res.status, 201, JSON.stringify(res.body));
        const slugs = made.map((res) => res.body.slug as string);
        assert.equal(new Set(slugs).size, WRITERS, `${kind}: ${slugs.join()}`);
      }
    }
  });

  test('projects and documents renamed alike at once: all 200, distinct slugs', async () => {
    const team = (await f.owner.post('/v1/teams', { name: 'Renames', publicId: 'REN' })).body;
    for (const kind of ['projects', 'documents']) {
      const made = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          f.owner.post(`/v1/${kind}?expand=none`, { name: `Before ${kind} ${i}`, teamId: team.id }),
        ),
      );
      for (let round = 0; round < ROUNDS; round++) {
        const renamed = await Promise.all(
          made.map((res) =>
            f.owner.post(`/v1/${kind}?expand=none`, { id: res.body.id, name: `Renamed ${kind} ${round}` }),
          ),
        );
        for (const res of renamed) assert.equal(res.status, 200, JSON.stringify(res.body));
        const slugs = renamed.map((res) => res.body.slug as string);
        assert.equal(new Set(slugs).size, WRITERS, `${kind}: ${slugs.join()}`);
      }
    }
  });
});

describe('12. a constraint no check foresaw is a 409, not a 500', () => {
  test('a foreign key that refuses a write: 409 conflict alone, a conflict entry in a batch', async () => {
    // A trigger writes a dangling reference for one name: the foreign-key violation of a race that no
    // lock covers, on demand and on both databases.
    const dangle = `insert into group_members (workspace_id, group_id, user_id, role, created_at)
      values (new.workspace_id, '00000000-0000-4000-8000-000000000000', new.created_by_id, 'member', new.created_at)`;
    const statements = onPostgres
      ? [
          `create function dangle() returns trigger language plpgsql as
             $$ begin if new.name = 'Dangling' then ${dangle}; end if; return new; end $$`,
          'create trigger dangle before insert on tasks for each row execute function dangle()',
        ]
      : [`create trigger dangle before insert on tasks when new.name = 'Dangling' begin ${dangle}; end`];
    for (const statement of statements) await sql.raw(statement).execute(f.database.db);
    try {
      const team = (await f.owner.post('/v1/teams', { name: 'Dangling', publicId: 'DANG' })).body;
      const alone = await f.owner.post('/v1/tasks?expand=none', { name: 'Dangling', teamId: team.id });
      problem(alone, 409, 'conflict');
      const batch = await f.owner.post('/v1/tasks/batch?expand=none', {
        tasks: [
          { name: 'Fine', teamId: team.id },
          { name: 'Dangling', teamId: team.id },
        ],
      });
      assert.equal(batch.status, 200);
      assert.deepEqual(
        batch.body.failed.map((x: { code: string; index: number }) => [x.code, x.index]),
        [['conflict', 1]],
      );
    } finally {
      await sql.raw('drop trigger dangle' + (onPostgres ? ' on tasks' : '')).execute(f.database.db);
    }
  });
});
