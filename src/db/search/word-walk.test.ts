// Task searches that walk the rows of a word (PostgreSQL: word-walk.ts and the task_words table of
// migration 0011; SQLite: the tagged FTS5 index). The answers are checked on both databases; on
// PostgreSQL the words table is also compared, after each kind of write, with the words of every
// task's own tsvectors, which are what it must hold.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { onPostgres, setup, taskHelpers } from '../../test/helpers.ts';
import { taskWordsAgainstVectors } from '../../test/task-words.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const other = (await f.owner.post('/v1/teams', { name: 'Secret', privacy: 'private' })).body;
const member = await f.newUser('member', 'Mona Member');
const { create, search, ids } = taskHelpers(f.owner);

/** Tasks made in batches of 100 (the batch route's most): a burst of newer tasks without a word. */
async function burst(n: number, name = (i: number) => `Filler ${i}`) {
  for (let start = 0; start < n; start += 100) {
    const tasks = Array.from({ length: Math.min(100, n - start) }, (_, i) => ({
      name: name(start + i),
      teamId: team.id,
    }));
    const res = await f.owner.post('/v1/tasks/batch?expand=none', { tasks });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

/** Every page of a search, `limit` at a time, through its cursors: ids in order, and each total. */
async function walk(qs: string, limit: number) {
  const seen: string[] = [];
  const totals: number[] = [];
  let cursor = '';
  for (;;) {
    const res = await f.owner.get(`/v1/tasks/search?expand=none&${qs}&limit=${limit}${cursor}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const page = res.body;
    seen.push(...page.data.map((t: { id: string }) => t.id));
    totals.push(page.total);
    if (!page.nextCursor) return { seen, totals };
    cursor = `&cursor=${page.nextCursor}`;
  }
}

/** PostgreSQL: the words table holds exactly each task's words per field (as terms), under its current seq. */
async function wordsAgree() {
  if (!onPostgres) return;
  const { missing, extra } = await taskWordsAgainstVectors(f.database.db);
  assert.deepEqual({ missing, extra }, { missing: 0, extra: 0 });
}

describe('searches that walk the rows of a word', () => {
  test('a word behind a burst of newer tasks without it: found, in order, with its total', async () => {
    const old = [];
    for (const name of ['Quasar one', 'Quasar two', 'Pulsar quasars'])
      old.push(await create({ name, teamId: team.id }));
    await burst(250);
    await wordsAgree();
    const newest = old.map((t) => t.id).reverse();
    assert.deepEqual(await ids('name=quasar'), newest);
    assert.equal((await search('name=quasar')).total, 3);
    assert.deepEqual((await walk('name=quas', 1)).seen, newest);
    assert.deepEqual(await ids('name=pulsar+quas'), [old[2].id]);
    assert.deepEqual(await ids('name=quasar+nothing'), []);
  });

  test('a prefix of several words, a task holding two of them, is each task once across pages', async () => {
    const made = [];
    for (const name of ['plan planner', 'planning', 'planned plan plans', 'plain']) {
      made.push(await create({ name, teamId: team.id, description: 'lunar module' }));
    }
    const expected = made
      .slice(0, 3)
      .map((t) => t.id)
      .reverse();
    const { seen, totals } = await walk('name=plan', 1);
    assert.deepEqual(seen, expected);
    assert.deepEqual(new Set(totals), new Set([3]));
    assert.deepEqual(
      await ids('name=pla&description=lun+mod'),
      [...made].reverse().map((t) => t.id),
    );
  });

  test('two fields, any: both tiers, across pages, with a related name in the second', async () => {
    const both = await create({ name: 'Nebula survey', teamId: team.id, description: 'comet dust' });
    const nameOnly = await create({ name: 'Nebula map', teamId: team.id });
    const descOnly = await create({ name: 'Telescope', teamId: team.id, description: 'comet tail' });
    await burst(120);
    const qs = 'name=nebula&description=comet&matchMode=any';
    const tiers = [both.id, descOnly.id, nameOnly.id];
    assert.deepEqual((await walk(qs, 1)).seen, tiers);
    assert.deepEqual((await walk(qs, 2)).seen, tiers);
    assert.equal((await search(qs)).total, 3);
    // A team name may match rows without either word: that tier is asked without a driver.
    const withTeam = await ids(`${qs}&teamName=engin`);
    assert.deepEqual(withTeam.slice(0, 1), [both.id]);
    assert.equal(withTeam.length, 100);
    assert.deepEqual(await ids('name=nebula&description=comet'), [both.id]);
    assert.deepEqual(await ids('name=nebula&description=nowhere&matchMode=any'), [nameOnly.id, both.id]);
  });

  test('filters and visibility still apply to the walked rows', async () => {
    const open = await create({ name: 'Zenith open', teamId: team.id });
    const mine = await create({ name: 'Zenith private', teamId: team.id, visibility: 'private' });
    const hidden = await create({ name: 'Zenith hidden', teamId: other.id });
    const gone = await create({ name: 'Zenith gone', teamId: team.id });
    assert.equal((await f.owner.delete(`/v1/tasks/${gone.id}`)).status, 204);
    assert.deepEqual(await ids('name=zenith'), [hidden.id, mine.id, open.id]);
    assert.deepEqual(await ids('name=zenith&includeDeleted=true'), [gone.id, hidden.id, mine.id, open.id]);
    assert.deepEqual(await ids(`name=zenith&teamId=${other.id}`), [hidden.id]);
    const asMember = taskHelpers(member.api);
    assert.deepEqual(await asMember.ids('name=zenith'), [open.id]);
    assert.equal((await asMember.search('name=zenith')).total, 1);
  });

  test('deleted tasks: left out, or walked beside the live ones when asked for, across pages', async () => {
    const made = [];
    for (const name of ['Vortex north', 'Vortexes south', 'Vortex vortexes east', 'Vortex west'])
      made.push(await create({ name, teamId: team.id }));
    for (const t of [made[1], made[2]]) assert.equal((await f.owner.delete(`/v1/tasks/${t.id}`)).status, 204);
    await wordsAgree();
    const live = [made[3].id, made[0].id];
    // A delete is a change, so the deleted tasks are now the newest.
    const all = [made[2].id, made[1].id, ...live];
    for (const limit of [1, 3, 100]) {
      const liveOnly = await walk('name=vortex', limit);
      assert.deepEqual([liveOnly.seen, new Set(liveOnly.totals)], [live, new Set([2])]);
      const deleted = await walk('name=vortex&includeDeleted=true', limit);
      assert.deepEqual([deleted.seen, new Set(deleted.totals)], [all, new Set([4])]);
    }
    assert.deepEqual(await ids('name=vortexes&includeDeleted=true'), [made[2].id, made[1].id]);
    assert.deepEqual(await ids('name=vortexes'), []);
    const asMember = taskHelpers(member.api);
    assert.deepEqual(await asMember.ids('name=vortex&includeDeleted=true'), all);
    assert.deepEqual(await asMember.ids('name=vortex'), live);
    assert.equal((await f.owner.post(`/v1/tasks/${made[1].id}/restore`)).status, 200);
    await wordsAgree();
    assert.deepEqual(await ids('name=vortex'), [made[1].id, ...live]);
  });

  test('the words follow every write: update, delete, restore, batch, template', async () => {
    const t = await create({ name: 'Orbit alpha', teamId: team.id, description: 'first draft' });
    await wordsAgree();
    assert.equal(
      (await f.owner.post('/v1/tasks', { id: t.id, name: 'Orbit beta', description: 'final' })).status,
      200,
    );
    await wordsAgree();
    assert.deepEqual(await ids('name=alpha'), []);
    assert.deepEqual(await ids('description=draft'), []);
    assert.deepEqual(await ids('name=beta&description=fin'), [t.id]);
    assert.equal((await f.owner.post('/v1/tasks', { id: t.id, priority: true })).status, 200);
    assert.equal((await f.owner.delete(`/v1/tasks/${t.id}`)).status, 204);
    await wordsAgree();
    assert.deepEqual(await ids('name=orbit'), []);
    assert.equal((await f.owner.post(`/v1/tasks/${t.id}/restore`)).status, 200);
    await wordsAgree();
    assert.deepEqual(await ids('name=orbit'), [t.id]);
    const batch = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [
        { id: t.id, name: 'Orbit gamma' },
        { name: 'Orbit delta', teamId: team.id },
      ],
    });
    assert.equal(batch.status, 200, JSON.stringify(batch.body));
    await wordsAgree();
    assert.deepEqual(await ids('name=gamma'), [t.id]);
    const area = (await f.owner.post('/v1/areas', { name: 'People' })).body;
    const template = (await f.owner.post('/v1/task-templates', { name: 'Orbit epsilon', areaId: area.id }))
      .body;
    const made = await f.owner.post(`/v1/task-templates/${template.id}/create-task?expand=none`, {});
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await wordsAgree();
    assert.deepEqual(await ids('name=epsilon'), [made.body.id]);
  });

  test("another workspace's words are not this one's", async () => {
    const elsewhere = await f.newWorkspace('Elsewhere');
    const theirs = (await elsewhere.owner.post('/v1/teams', { name: 'Theirs' })).body;
    const res = await elsewhere.owner.post('/v1/tasks?expand=none', {
      name: 'Quasar far',
      teamId: theirs.id,
    });
    assert.equal(res.status, 201);
    await wordsAgree();
    assert.equal((await search('name=quasar+far')).total, 0);
    assert.deepEqual(
      (await taskHelpers(elsewhere.owner).search('name=quasar')).data.map((t: { id: string }) => t.id),
      [res.body.id],
    );
  });
});
