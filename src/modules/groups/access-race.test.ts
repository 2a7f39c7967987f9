// A caller's groups are read with its credential and kept for the whole request (groups/lookup.ts
// knownGroupVisibility); a write that uses a team's statuses checks the caller's access again under
// the team's lock. These tests hold a team's lock the way a change of the team does (PostgreSQL: FOR
// UPDATE, to its commit) while a member's create waits for it. SQLite has one writer: nothing can
// commit between a write's lock and its read, so there is no wait to race.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { onPostgres, problem, setup } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member');
const team = (
  await f.owner.post('/v1/teams?expand=taskStatuses', {
    name: 'Vault',
    privacy: 'private',
    members: [{ id: member.id }],
  })
).body;

/**
 * Runs `change` in a transaction of its own that also locks the team FOR UPDATE, starts `write` while
 * that transaction is open, waits until the write waits for the lock, then commits the change.
 */
async function whileTeamLocked<T>(change: string, write: () => Promise<T>): Promise<T> {
  return f.database.db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    await sql.raw(change).execute(conn);
    await sql`select id from groups where id = ${team.id} for update`.execute(conn);
    const pending = write();
    await waitForLockWait();
    await sql`commit`.execute(conn);
    return pending;
  });
}

async function waitForLockWait(): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_locks where not granted`.execute(f.database.db);
    if (rows[0]!.waiting > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the write never waited for the team');
}

async function tasksNamed(name: string): Promise<string[]> {
  const found = await f.owner.get(`/v1/tasks/search?name=${encodeURIComponent(name)}&expand=none`);
  return found.body.data.map((t: { name: string }) => t.name);
}

describe('a change of a team racing a write in it', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  // Each test starts with the member in the team.
  afterEach(async () => {
    const back = await f.owner.post('/v1/teams', { id: team.id, members: [{ id: member.id }] });
    assert.equal(back.status, 200);
  });

  test('a member removed while its create waits for the team is refused: the create reads the removal', async () => {
    // Authenticated before the removal commits: its credential's groups still list the team.
    const res = await whileTeamLocked(
      `delete from group_members where group_id = '${team.id}' and user_id = '${member.id}'`,
      () => member.api.post('/v1/tasks', { name: 'Slipped in', teamId: team.id }),
    );
    const body = problem(res, 400, 'validation_failed');
    assert.deepEqual(body.errors, [{ path: '/body/teamId', message: 'no team with this id' }]);
    assert.deepEqual(await tasksNamed('Slipped in'), []);
  });

  test("a member removed while its status change waits for the team is refused: the task is no longer the member's to see", async () => {
    const task = (await member.api.post('/v1/tasks', { name: 'Moving', teamId: team.id })).body;
    const done = team.taskStatuses.find((s: { stage: string }) => s.stage === 'completed');
    const res = await whileTeamLocked(
      `delete from group_members where group_id = '${team.id}' and user_id = '${member.id}'`,
      () => member.api.post('/v1/tasks', { id: task.id, statusId: done.id }),
    );
    problem(res, 404, 'not_found');
    const seen = await f.owner.get(`/v1/tasks/${task.id}`);
    assert.equal(seen.body.statusId, task.statusId);
  });

  test('a change that keeps the member in the team only makes the create wait', async () => {
    const res = await whileTeamLocked(`update groups set name = 'Vault 2' where id = '${team.id}'`, () =>
      member.api.post('/v1/tasks', { name: 'Waited', teamId: team.id }),
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(await tasksNamed('Waited'), ['Waited']);
  });
});
