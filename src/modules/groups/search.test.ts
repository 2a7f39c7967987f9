// GET /v1/teams/search: the text semantics of docs/decisions.md §5, ordering, pagination and totals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { problem, setup } from '../../test/helpers.ts';

const f = await setup();

const NAMES = [
  'Café Crème',
  'Backend Platform',
  'Platform Reliability',
  'Mobile Apps',
  'Ｗｉｄｅ Letters', // full-width: NFKC folds it to "wide letters"
  'Straße Crew',
  'Data-Science',
];
const ids = new Map<string, string>();
for (const name of NAMES) {
  const res = await f.owner.post('/v1/teams', { name });
  assert.equal(res.status, 201);
  ids.set(name, res.body.id);
}

async function names(query: string): Promise<string[]> {
  const res = await f.owner.get(`/v1/teams/search?expand=none&limit=100&${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.total, res.body.data.length);
  return res.body.data.map((t: { name: string }) => t.name).sort();
}

describe('text semantics', () => {
  test('case and diacritics are folded both ways', async () => {
    assert.deepEqual(await names('name=cafe'), ['Café Crème']);
    assert.deepEqual(await names('name=CAFÉ'), ['Café Crème']);
    assert.deepEqual(await names('name=creme'), ['Café Crème']);
  });

  test('Unicode compatibility forms are folded (NFKC)', async () => {
    assert.deepEqual(await names('name=wide'), ['Ｗｉｄｅ Letters']);
    assert.deepEqual(await names(`name=${encodeURIComponent('ｌｅｔ')}`), ['Ｗｉｄｅ Letters']);
  });

  test('every query word must be a prefix of some word of the name', async () => {
    assert.deepEqual(await names('name=plat'), ['Backend Platform', 'Platform Reliability']);
    assert.deepEqual(await names('name=plat+rel'), ['Platform Reliability']);
    assert.deepEqual(await names('name=rel+plat'), ['Platform Reliability']);
    assert.deepEqual(await names('name=latform'), []);
    assert.deepEqual(await names('name=plat+nothing'), []);
  });

  test('punctuation separates words', async () => {
    assert.deepEqual(await names('name=science'), ['Data-Science']);
    assert.deepEqual(await names('name=data+sci'), ['Data-Science']);
    assert.deepEqual(await names(`name=${encodeURIComponent('data-sci')}`), ['Data-Science']);
  });

  test('a name of no words is no text filter; no name lists every team', async () => {
    const all = await names('');
    assert.ok(all.length >= NAMES.length);
    assert.deepEqual(await names('name=%20%21%21'), all);
  });

  test('matchMode any with one field matches like all; a bad mode is 400', async () => {
    assert.deepEqual(await names('name=mobile&matchMode=any'), ['Mobile Apps']);
    problem(await f.owner.get('/v1/teams/search?matchMode=some'), 400, 'validation_failed');
  });

  test('renaming a team changes what finds it, at once', async () => {
    const id = ids.get('Mobile Apps');
    await f.owner.post('/v1/teams', { id, name: 'Handheld Apps' });
    assert.deepEqual(await names('name=mobile'), []);
    assert.deepEqual(await names('name=handheld'), ['Handheld Apps']);
  });
});

describe('archived teams', () => {
  test('are hidden unless includeArchived', async () => {
    const team = await f.owner.post('/v1/teams', { name: 'Retired Squad' });
    await f.owner.post(`/v1/teams/${team.body.id}/archive`);
    assert.deepEqual(await names('name=retired'), []);
    assert.deepEqual(await names('name=retired&includeArchived=true'), ['Retired Squad']);
    assert.deepEqual(await names('name=retired&includeArchived'), ['Retired Squad']);
  });
});

describe('order and pagination', () => {
  test('newest change first; a walk returns every team exactly once, even while teams are added', async () => {
    const before = await f.owner.get('/v1/teams/search?expand=none&limit=100');
    const expected: string[] = before.body.data.map((t: { id: string }) => t.id);
    const updatedAt: string[] = before.body.data.map((t: { updatedAt: string }) => t.updatedAt);
    assert.deepEqual(updatedAt, [...updatedAt].sort().reverse());

    const seen: string[] = [];
    let cursor: string | null = null;
    let added = 0;
    do {
      const url: string = `/v1/teams/search?expand=none&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await f.owner.get(url);
      assert.equal(page.status, 200);
      assert.equal(page.body.total, expected.length + added);
      seen.push(...page.body.data.map((t: { id: string }) => t.id));
      cursor = page.body.nextCursor;
      assert.equal(page.body.hasMore, cursor !== null);
      await f.owner.post('/v1/teams', { name: `Latecomer ${added}` });
      added += 1;
    } while (cursor);
    assert.deepEqual(seen, expected);
  });
});
