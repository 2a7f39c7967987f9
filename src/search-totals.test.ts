// Totals of searches and lists (docs/api.md "Totals"): a search with text counts its matches exactly
// up to 1,000 and then answers 1000 with totalRelation "gte"; a search with filters only and the
// lists count exactly ("eq"). The same on both databases, through each way a search is answered
// (tasks: SQLite's tagged FTS5 index and PostgreSQL's SQL; documents: the list kit's search).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, setup } from './test/helpers.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Counting' })).body;

/** 1,001 tasks whose names have the word "alpha"; the last also "beta". */
async function seedTasks(): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < 1001; start += 100) {
    const tasks = Array.from({ length: Math.min(100, 1001 - start) }, (_, i) => ({
      name: start + i === 1000 ? 'Alpha beta' : `Alpha ${start + i}`,
      teamId: team.id,
    }));
    const res = await f.owner.post('/v1/tasks/batch?expand=none', { tasks });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.failed.length, 0, JSON.stringify(res.body.failed));
    ids.push(...res.body.succeeded.map((t: { id: string }) => t.id));
  }
  return ids;
}

async function answer(as: Client, url: string) {
  const res = await as.get(url);
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every id a search returns, walking its pages. */
async function walk(url: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const body = await answer(f.owner, `${url}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    ids.push(...body.data.map((x: { id: string }) => x.id));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

const totalOf = (body: { total: number; totalRelation: string }) => [body.total, body.totalRelation];

const taskIds = await seedTasks();

describe('search totals', () => {
  test('a text search stops counting at 1,000 and says so; every match is still walked', async () => {
    const search = '/v1/tasks/search?expand=none';
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&name=alpha`)), [1000, 'gte']);
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&name=beta`)), [1, 'eq']);
    // Two fields, any: the total counts the matches of either, bounded the same way.
    const any = `${search}&name=beta&description=nothing&matchMode=any`;
    assert.deepEqual(totalOf(await answer(f.owner, any)), [1, 'eq']);
    const both = `${search}&name=alpha&description=nothing&matchMode=any`;
    assert.deepEqual(totalOf(await answer(f.owner, both)), [1000, 'gte']);
    // A related name is text too.
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&teamName=counting`)), [1000, 'gte']);
    assert.equal((await walk(`${search}&name=alpha`)).length, 1001);
  });

  test('filters alone count exactly, beyond 1,000 too', async () => {
    const byTeam = await answer(f.owner, `/v1/tasks/search?expand=none&teamId=${team.id}`);
    assert.deepEqual(totalOf(byTeam), [1001, 'eq']);
    // A filter the counters do not answer is counted.
    const since = await answer(
      f.owner,
      `/v1/tasks/search?expand=none&teamId=${team.id}&updatedSince=2000-01-01T00:00:00Z`,
    );
    assert.deepEqual(totalOf(since), [1001, 'eq']);
  });

  test('exactly 1,000 matches are counted exactly', async () => {
    const res = await f.owner.delete(`/v1/tasks/${taskIds[0]}`);
    assert.equal(res.status, 204);
    const body = await answer(f.owner, '/v1/tasks/search?expand=none&name=alpha');
    assert.deepEqual(totalOf(body), [1000, 'eq']);
    const withDeleted = await answer(f.owner, '/v1/tasks/search?expand=none&name=alpha&includeDeleted=true');
    assert.deepEqual(totalOf(withDeleted), [1000, 'gte']);
  });

  test('documents: the same bound through the list kit', async () => {
    for (let start = 0; start < 1001; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 1001 - start) }, async (_, i) => {
          const res = await f.owner.post('/v1/documents?expand=none', {
            name: `Gamma ${start + i}`,
            teamId: team.id,
          });
          assert.equal(res.status, 201, JSON.stringify(res.body));
        }),
      );
    }
    const search = '/v1/documents/search?expand=none';
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&name=gamma`)), [1000, 'gte']);
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&name=gamma+1000`)), [1, 'eq']);
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&teamId=${team.id}`)), [1001, 'eq']);
  });

  test('lists with includeTotal count exactly; without it there is no total', async () => {
    await f.owner.post('/v1/projects', { name: 'Counted project', teamId: team.id });
    const counted = await answer(f.owner, '/v1/projects/list?includeTotal=true');
    assert.deepEqual(totalOf(counted), [1, 'eq']);
    const plain = await answer(f.owner, '/v1/projects/list');
    assert.deepEqual(Object.keys(plain).sort(), ['data', 'hasMore', 'nextCursor']);
  });
});
