// Presenting tasks (present.ts, expansions.ts): what a read costs in statements, and a page whose
// rows name the same task in two states.
import assert from 'node:assert/strict';
import { StatementSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import pg from 'pg';
import { onPostgres, setup } from '../../test/helpers.ts';

// Counts the statements sent to the database while `counting` is on: node:sqlite's statements, or
// pg's queries. Installed before the fixture opens connections (db/pg-statements.ts binds each
// connection's query function when it connects).
let counting = false;
let statements: string[] = [];
function counted<F extends (...args: never[]) => unknown>(original: F): F {
  return function (this: unknown, ...args: Parameters<F>) {
    if (counting) {
      const first = args[0] as unknown;
      const text =
        this instanceof StatementSync
          ? this.sourceSQL
          : typeof first === 'string'
            ? first
            : String((first as { text?: string }).text);
      // A new connection's session settings (db/index.ts) are not the request's.
      if (!text.startsWith('set time zone')) statements.push(text);
    }
    return original.apply(this, args);
  } as F;
}
if (onPostgres) pg.Client.prototype.query = counted(pg.Client.prototype.query);
else {
  for (const name of ['all', 'get', 'run', 'iterate'] as const)
    StatementSync.prototype[name] = counted(StatementSync.prototype[name]) as never;
}

async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  statements = [];
  counting = true;
  try {
    await fn();
  } finally {
    counting = false;
  }
  return statements;
}

const f = await setup();
const team = (
  await f.owner.post('/v1/teams?expand=taskStatuses,taskLabels', {
    name: 'Platform',
    taskLabels: [{ name: 'bug' }, { name: 'urgent' }],
  })
).body;
const project = (await f.owner.post('/v1/projects', { name: 'Launch', teamId: team.id })).body;
const task = (
  await f.owner.post('/v1/tasks', {
    name: 'Write the plan',
    teamId: team.id,
    projectId: project.id,
    assignedToId: f.ws.user.id,
    labelIds: [team.taskLabels[1].id, team.taskLabels[0].id],
  })
).body;

describe('presenting tasks', () => {
  test('a get with every expansion is two statements: the token with the groups, the task with its expansions', async () => {
    await f.owner.get(`/v1/tasks/${task.id}`);
    let res: Awaited<ReturnType<typeof f.owner.get>> | undefined;
    const sent = await statementsOf(async () => {
      res = await f.owner.get(`/v1/tasks/${task.id}?expand=all`);
    });
    assert.equal(res!.status, 200);
    assert.deepEqual(res!.body.labelIds, [team.taskLabels[0].id, team.taskLabels[1].id]);
    assert.deepEqual(res!.body.project, { id: project.id, name: 'Launch' });
    assert.equal(res!.body.assignee.id, f.ws.user.id);
    assert.equal(res!.body.status.id, task.statusId);
    assert.equal(res!.body.team.id, team.id);
    assert.equal(sent.length, 2, sent.join('\n'));
  });

  test("a page's expansions add no statement: the presenter's one reads them with the labels", async () => {
    await f.owner.post('/v1/tasks/batch', {
      tasks: [1, 2, 3].map((n) => ({ name: `Step ${n}`, teamId: team.id, projectId: project.id })),
    });
    const search = `/v1/tasks/search?projectId=${project.id}&limit=50`;
    const [all, none] = [
      await statementsOf(() => f.owner.get(`${search}&expand=all`)),
      await statementsOf(() => f.owner.get(`${search}&expand=none`)),
    ];
    assert.equal(all.length, none.length, `${all.join('\n')}\n--\n${none.join('\n')}`);
  });

  test('a create is 6 round trips on PostgreSQL: its event, counters and row are one statement', async () => {
    const body = { name: 'Counted', teamId: team.id, description: 'plain' };
    await f.owner.post('/v1/tasks', body);
    let res: Awaited<ReturnType<typeof f.owner.post>> | undefined;
    const sent = await statementsOf(async () => {
      res = await f.owner.post('/v1/tasks?expand=all', body);
    });
    assert.equal(res!.status, 201, JSON.stringify(res!.body));
    // The token (with the caller's groups, which the transaction keeps), begin, the team's statuses
    // with its lock (PostgreSQL) and the caller's access to it, the writes, commit, the presentation.
    // SQLite writes the event, the counters, the row and its FTS5 entry and terms one by one, none a
    // round trip.
    const writes = sent.filter((text) => /^(with|insert)/.test(text));
    if (onPostgres) {
      assert.equal(sent.length, 6, sent.join('\n'));
      assert.match(sent[2]!, /^select .* for key share\) as "k"/s);
      assert.equal(writes.length, 1);
      assert.match(
        writes[0]!,
        /^with "events_written" as \(insert into "events".*"counters_moved" as \(insert into "counters".*\) insert into "tasks"/s,
      );
    } else assert.equal(sent.length, 10, sent.join('\n'));
    // The publicId counted back from the counter's new value: the next after the first create's.
    const both = await f.owner.get('/v1/tasks/search?name=Counted&expand=none');
    const ids = both.body.data.map((t: { publicId: number }) => t.publicId);
    assert.deepEqual(ids, [res!.body.publicId, res!.body.publicId - 1]);
    const events = await f.owner.get(`/v1/events?type=task.created&entityId=${res!.body.id}`);
    assert.deepEqual(
      events.body.data.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id]),
      [['task.created', res!.body.id]],
    );
  });

  test('a batch that changes one task twice shows each entry as it was written', async () => {
    const statuses = team.taskStatuses as { id: string }[];
    const res = await f.owner.post('/v1/tasks/batch?expand=status', {
      tasks: [
        { id: task.id, statusId: statuses[1]!.id },
        { id: task.id, statusId: statuses[2]!.id },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.succeeded.map((t: { statusId: string; status: { id: string } }) => [t.statusId, t.status.id]),
      [
        [statuses[1]!.id, statuses[1]!.id],
        [statuses[2]!.id, statuses[2]!.id],
      ],
    );
  });
});
