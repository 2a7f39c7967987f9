// Races that a constraint would refuse, run many times: the answer is the one the sequential case
// gives (a 409 or a 400 with its code and field), never a 5xx, and the same on both databases. SQLite
// serializes writers, so there these are the sequential case itself; on PostgreSQL each request has
// its own connection and the removal checks and the derived values only hold because of locks
// (docs/reliability.md, "Concurrent changes").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { onPostgres, problem, setup } from './test/helpers.ts';

const f = await setup();

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
