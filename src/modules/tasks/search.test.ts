// GET /v1/tasks/search: text, filters, tiers, totals (the batch is in batch.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { problem, setup, taskHelpers } from '../../test/helpers.ts';

const f = await setup();
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const ops = (await f.owner.post('/v1/teams', { name: 'Operations' })).body;
const rocket = (await f.owner.post('/v1/projects', { name: 'Rocket Launch', teamId: eng.id })).body;
const bea = await f.newUser('member', 'Béatrice Curie');

const { create, search, ids } = taskHelpers(f.owner);

const fuel = await create({
  name: 'Fuel the rocket',
  teamId: eng.id,
  projectId: rocket.id,
  description: 'Liquid oxygen first',
});
const paint = await create({ name: 'Paint the hangar', teamId: ops.id, description: 'Use the rocket red' });
const count = await create({
  name: 'Countdown script',
  teamId: eng.id,
  projectId: rocket.id,
  assignedToId: bea.id,
});
const lunch = await create({ name: 'Order lunch', teamId: ops.id });

describe('task search', () => {
  test('each text field, folded and by word prefix', async () => {
    assert.deepEqual(await ids('name=fuel'), [fuel.id]);
    assert.deepEqual(await ids('name=ROCK'), [fuel.id]);
    assert.deepEqual(await ids('description=oxy+liq'), [fuel.id]);
    assert.deepEqual(await ids('projectName=launch'), [count.id, fuel.id]);
    assert.deepEqual(await ids('teamName=opera'), [lunch.id, paint.id]);
    assert.deepEqual(await ids('assigneeName=beatrice'), [count.id]);
    assert.deepEqual(await ids('assigneeName=nobody'), []);
  });

  test('matchMode all needs every field; any puts rows matching all fields first', async () => {
    assert.deepEqual(await ids('name=rocket&description=rocket'), []);
    assert.deepEqual(await ids('name=fuel&projectName=rocket'), [fuel.id]);
    // any: fuel matches both fields, so it leads; then newest first among the rest.
    const any = await search('name=rocket&description=oxygen&projectName=rocket&matchMode=any');
    assert.deepEqual(
      any.data.map((t: { id: string }) => t.id),
      [fuel.id, count.id],
    );
    assert.equal(any.total, 2);
    const tiers = await ids('name=paint&description=rocket&matchMode=any');
    assert.deepEqual(tiers, [paint.id]);
    assert.deepEqual(await ids('name=hangar&teamName=engineering&matchMode=any'), [
      count.id,
      paint.id,
      fuel.id,
    ]);
  });

  test('id filters always apply with AND', async () => {
    assert.deepEqual(await ids(`name=rocket&description=rocket&matchMode=any&teamId=${ops.id}`), [paint.id]);
    assert.deepEqual(await ids(`projectId=${rocket.id}`), [count.id, fuel.id]);
    assert.deepEqual(await ids(`teamId=${eng.id}&name=count`), [count.id]);
    problem(await f.owner.get('/v1/tasks/search?teamId=ENG'), 400, 'validation_failed');
  });

  test('no text lists tasks most recently changed first', async () => {
    assert.deepEqual(await ids(''), [lunch.id, count.id, paint.id, fuel.id]);
    await f.owner.post('/v1/tasks', { id: paint.id, priority: true });
    assert.deepEqual(await ids(''), [paint.id, lunch.id, count.id, fuel.id]);
    assert.deepEqual(await ids('name=the'), [paint.id, fuel.id]);
  });

  test('renaming a project, team or user changes what finds its tasks, at once', async () => {
    await f.owner.post('/v1/projects', { id: rocket.id, name: 'Moonshot' });
    assert.deepEqual(await ids('projectName=launch'), []);
    assert.deepEqual(await ids('projectName=moon'), [count.id, fuel.id]);
    await f.owner.post('/v1/teams', { id: ops.id, name: 'Facilities' });
    assert.deepEqual(await ids('teamName=operations'), []);
    assert.deepEqual(await ids('teamName=facil'), [paint.id, lunch.id]);
    await f.owner.post('/v1/users', { id: bea.id, name: 'Marie Sklodowska' });
    assert.deepEqual(await ids('assigneeName=beatrice'), []);
    assert.deepEqual(await ids('assigneeName=sklod'), [count.id]);
    await f.owner.post('/v1/tasks', { id: fuel.id, name: 'Refuel the booster' });
    assert.deepEqual(await ids('name=fuel'), []);
    assert.deepEqual(await ids('name=refuel'), [fuel.id]);
  });

  test('deleted tasks only with includeDeleted; includeMarkdown and expand apply', async () => {
    const gone = await create({ name: 'Obsolete chore', teamId: eng.id, description: 'old *stuff*' });
    await f.owner.delete(`/v1/tasks/${gone.id}`);
    assert.deepEqual(await ids('name=obsolete'), []);
    assert.deepEqual(await ids('name=obsolete&includeDeleted=true'), [gone.id]);
    const full = await f.owner.get(
      '/v1/tasks/search?name=obsolete&includeDeleted&includeMarkdown=true&expand=status',
    );
    assert.deepEqual(full.body.data[0].description, {
      html: '<p>old <em>stuff</em></p>',
      markdown: 'old *stuff*',
    });
    assert.ok('status' in full.body.data[0]);
    assert.ok(!('team' in full.body.data[0]));
  });

  test('a walk returns every task that existed exactly once while others are added, and total counts them', async () => {
    for (let i = 0; i < 12; i++) await create({ name: `Walker ${i}`, teamId: eng.id });
    const expected = await ids('name=walker');
    assert.equal(expected.length, 12);
    const seen: string[] = [];
    let cursor: string | null = null;
    let added = 0;
    do {
      const res = await f.owner.get(
        `/v1/tasks/search?expand=none&name=walker&limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(res.status, 200);
      assert.equal(res.body.total, 12 + added);
      seen.push(...res.body.data.map((t: { id: string }) => t.id));
      cursor = res.body.nextCursor;
      await create({ name: `Walker late ${added}`, teamId: eng.id });
      added += 1;
    } while (cursor);
    assert.deepEqual(seen, expected);
  });

  test('a tier-crossing walk in any mode is stable too', async () => {
    const expected = await ids('name=walker&description=nothing&teamName=engineering&matchMode=any');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await f.owner.get(
        `/v1/tasks/search?expand=none&name=walker&teamName=engineering&description=nothing&matchMode=any&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...res.body.data.map((t: { id: string }) => t.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, expected);
    assert.equal(new Set(seen).size, seen.length);
  });

  test('a prefix of many different words finds them all (SQLite asks FTS5 for the prefix itself)', async () => {
    const res = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: Array.from({ length: 70 }, (_, i) => ({ name: `Zebra${i} stripe`, teamId: eng.id })),
    });
    assert.equal(res.body.succeeded.length, 70);
    assert.equal((await search('name=zebra')).total, 70);
    assert.equal((await search('name=zebra1')).total, 11);
    assert.equal((await search('name=zebra69+stripe')).total, 1);
    assert.equal((await search('name=zebra7')).total, 1);
    assert.equal((await search('name=zebra70')).total, 0);
  });

  test('the total of a search without text is exactly what a walk returns, for every caller', async () => {
    const member = await f.newUser('member', 'Counting Member');
    const guest = await f.newUser('guest', 'Counting Guest');
    const closed = (await f.owner.post('/v1/teams', { name: 'Closed room', privacy: 'private' })).body;
    await f.owner.post('/v1/teams', {
      id: eng.id,
      members: [{ id: f.ws.user.id, role: 'owner' }, { id: guest.id }],
    });
    await create({ name: 'Closed task', teamId: closed.id });
    await create({ name: 'Private elsewhere', teamId: eng.id, visibility: 'private' });
    await member.api.post('/v1/tasks', { name: 'Private mine', teamId: eng.id, visibility: 'private' });
    await create({
      name: 'Private assigned',
      teamId: ops.id,
      visibility: 'private',
      assignedToId: member.id,
    });
    const doomed = await create({ name: 'Deleted closed task', teamId: closed.id });
    await f.owner.delete(`/v1/tasks/${doomed.id}`);
    for (const [who, api] of [
      ['owner', f.owner],
      ['member', member.api],
      ['guest', guest.api],
    ] as const) {
      for (const flags of ['', '&includeDeleted=true']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let total = -1;
        do {
          const res = await api.get(
            `/v1/tasks/search?expand=none&limit=100${flags}${cursor ? `&cursor=${cursor}` : ''}`,
          );
          total = res.body.total;
          seen.push(...res.body.data.map((t: { id: string }) => t.id));
          cursor = res.body.nextCursor;
        } while (cursor);
        assert.equal(total, seen.length, `${who}${flags}`);
        assert.ok(seen.length > 0, `${who}${flags} sees something`);
      }
    }
  });

  test('a cursor from another search is 400', async () => {
    const page = (await f.owner.get('/v1/tasks/search?name=walker&limit=2')).body;
    assert.equal(typeof page.nextCursor, 'string');
    problem(
      await f.owner.get(`/v1/tasks/search?name=other&cursor=${page.nextCursor}`),
      400,
      'invalid_cursor',
    );
    problem(
      await f.owner.get(`/v1/tasks/search?name=walker&includeDeleted&cursor=${page.nextCursor}`),
      400,
      'invalid_cursor',
    );
    const next = await f.owner.get(
      `/v1/tasks/search?name=walker&limit=7&expand=none&cursor=${page.nextCursor}`,
    );
    assert.equal(next.status, 200, 'limit and expand may change between pages');
  });
});

describe('totals of lists by team and by project (counters)', () => {
  test('stay equal to the number of tasks a walk finds through creates, moves, deletes and restores', async () => {
    const dock = (await f.owner.post('/v1/projects', { name: 'Dock', teamId: ops.id })).body;
    const made = (
      await f.owner.post('/v1/tasks/batch?expand=none', {
        tasks: [
          ...Array.from({ length: 5 }, (_, i) => ({
            name: `Counted ${i}`,
            teamId: eng.id,
            projectId: rocket.id,
          })),
          ...Array.from({ length: 3 }, (_, i) => ({ name: `Counted ops ${i}`, teamId: ops.id })),
        ],
      })
    ).body.succeeded as { id: string }[];
    // What a member does not see there: a private team's tasks in a shared project, others' private
    // tasks; and what they do: a private task assigned to them.
    const closed = (await f.owner.post('/v1/teams', { name: 'Closed', privacy: 'private' })).body;
    const more = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [
        { name: 'Counted closed', teamId: closed.id, projectId: rocket.id },
        { name: 'Counted closed loose', teamId: closed.id },
        { name: 'Counted secret', teamId: eng.id, projectId: rocket.id, visibility: 'private' },
        { name: 'Counted secret ops', teamId: ops.id, visibility: 'private' },
        { name: 'Counted for bea', teamId: eng.id, visibility: 'private', assignedToId: bea.id },
      ],
    });
    assert.equal(more.body.succeeded.length, 5);
    const walk = async (qs: string, as = f.owner) => {
      let n = 0;
      let cursor = '';
      for (;;) {
        const page = await as.get(`/v1/tasks/search?expand=none&limit=2&${qs}${cursor}`);
        assert.equal(page.status, 200);
        n += page.body.data.length;
        if (!page.body.hasMore) return { n, total: page.body.total as number };
        cursor = `&cursor=${page.body.nextCursor}`;
      }
    };
    const check = async () => {
      for (const qs of [
        `teamId=${eng.id}`,
        `teamId=${ops.id}`,
        `projectId=${rocket.id}`,
        `projectId=${dock.id}`,
        `teamId=${eng.id}&includeDeleted=true`,
        `teamId=${closed.id}`,
      ]) {
        const { n, total } = await walk(qs);
        assert.equal(total, n, qs);
        // A member's total is counted (private tasks of others are not theirs to see), not read.
        const member = await walk(qs, bea.api);
        assert.equal(member.total, member.n, qs);
      }
    };
    await check();
    // Move one to another team (its project keeps it), one to another project, one out of its project.
    await f.owner.post('/v1/tasks', { id: made[0]!.id, teamId: ops.id });
    await f.owner.post('/v1/tasks', { id: made[1]!.id, projectId: dock.id, teamId: ops.id });
    await f.owner.post('/v1/tasks', { id: made[2]!.id, projectId: null });
    await f.owner.post('/v1/tasks', { id: made[4]!.id, teamId: closed.id });
    await f.owner.post('/v1/tasks', { id: made[6]!.id, visibility: 'private' });
    await check();
    // Delete (twice: the second changes nothing), restore, and update a deleted one (refused).
    assert.equal((await f.owner.delete(`/v1/tasks/${made[3]!.id}`)).status, 204);
    assert.equal((await f.owner.delete(`/v1/tasks/${made[3]!.id}`)).status, 204);
    assert.equal((await f.owner.delete(`/v1/tasks/${made[5]!.id}`)).status, 204);
    problem(await f.owner.post('/v1/tasks', { id: made[3]!.id, teamId: ops.id }), 409, 'deleted');
    await check();
    assert.equal((await f.owner.post(`/v1/tasks/${made[5]!.id}/restore`)).status, 200);
    await check();
  });
});
