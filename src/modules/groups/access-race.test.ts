// A caller's groups are read with its credential and kept for the whole request (groups/lookup.ts
// knownGroupVisibility); a write that uses a team's statuses checks the caller's access again under
// the team's lock. These tests hold a team's lock the way a change of the team does (PostgreSQL: FOR
// UPDATE, to its commit, with the team's row written) while a member's create waits for it. SQLite
// has one writer: nothing can commit between a write's lock and its read, so there is no wait to
// race. The last test, on both, sends a body slowly.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { afterEach, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
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
 * Runs `change` in a transaction of its own that also locks the team FOR UPDATE and writes its row, as
 * every change of a team does (groups/service.ts), starts `write` while that transaction is open,
 * waits until the write waits for the lock, then commits the change.
 */
async function whileTeamLocked<T>(change: string, write: () => Promise<T>): Promise<T> {
  return f.database.db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    await sql.raw(change).execute(conn);
    await sql`select id from groups where id = ${team.id} for update`.execute(conn);
    await sql`update groups set updated_at = now() where id = ${team.id}`.execute(conn);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
    const pending = write();
    await waitForWaiterOn(rows[0]!.pid);
    await sql`commit`.execute(conn);
    return pending;
  });
}

/** Until some session waits for a lock the session `holder` holds. */
async function waitForWaiterOn(holder: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
      where ${holder}::int = any(pg_blocking_pids(pid))`.execute(f.database.db);
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

test('a request checked more than a second before it reads the groups reads them again', async () => {
  const task = (await member.api.post('/v1/tasks', { name: 'Slow rename', teamId: team.id })).body;
  const token = (await f.owner.post('/v1/api-tokens', { name: 'slow', userId: member.id })).body.token;
  // The body comes a while after the headers, which were checked at once (http/auth.ts).
  const body = new Readable({ read() {} });
  const pending = f.app.inject({
    method: 'POST',
    url: '/v1/tasks',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: body,
  });
  await delay(200);
  const removed = await f.owner.post('/v1/teams', { id: team.id, members: [] });
  assert.equal(removed.status, 200);
  await delay(1_100);
  body.push(JSON.stringify({ id: task.id, name: 'Renamed late' }));
  body.push(null);
  const res = await pending;
  assert.equal(res.statusCode, 404, res.body);
  assert.equal((await f.owner.get(`/v1/tasks/${task.id}`)).body.name, 'Slow rename');
  const back = await f.owner.post('/v1/teams', { id: team.id, members: [{ id: member.id }] });
  assert.equal(back.status, 200);
});
