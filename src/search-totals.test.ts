// Totals of searches and lists (docs/api.md "Totals"): a search with text counts its matches exactly
// up to 1,000 and then answers 1000 with totalRelation "gte"; a search with filters only and the
// lists count exactly ("eq"). The same on both databases, through each way a search is answered
// (tasks: SQLite's tagged FTS5 index and PostgreSQL's SQL; documents: the list kit's search).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, setup } from './test/helpers.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Counting' })).body;

/**
 * 2,101 tasks whose names have the word "alpha", twice the count's bound. Every 14th also has "beta"
 * (151); every 28th and every 9th has
 * "gamma" in its description, so a two-field `any` search of beta and gamma has two tiers. The
 * first 1,001 also have "delta": one more than a text search counts.
 */
const SEEDED = 2101;
async function seedTasks(): Promise<{ id: string; publicId: number }[]> {
  const made: { id: string; publicId: number }[] = [];
  for (let start = 0; start < SEEDED; start += 100) {
    const tasks = Array.from({ length: Math.min(100, SEEDED - start) }, (_, k) => {
      const i = start + k;
      return {
        name: `${i % 14 === 0 ? 'Alpha beta' : 'Alpha'} ${i}${i < 1001 ? ' delta' : ''}`,
        description: i % 28 === 0 || i % 9 === 0 ? 'gamma' : '',
        teamId: team.id,
      };
    });
    const res = await f.owner.post('/v1/tasks/batch?expand=none', { tasks });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.failed.length, 0, JSON.stringify(res.body.failed));
    made.push(...res.body.succeeded.map((t: { id: string; publicId: number }) => t));
  }
  return made;
}

async function answer(as: Client, url: string) {
  const res = await as.get(url);
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every item a search returns, walking its pages (limit 100). */
async function walk(url: string): Promise<{ id: string; publicId: number }[]> {
  const items: { id: string; publicId: number }[] = [];
  let cursor: string | null = null;
  do {
    const body = await answer(f.owner, `${url}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    items.push(...body.data);
    cursor = body.nextCursor;
  } while (cursor);
  return items;
}

/** Tasks made once and never changed are listed newest first: publicIds strictly decreasing. */
function newestFirst(items: { publicId: number }[]): boolean {
  return items.every((item, i) => i === 0 || Number(item.publicId) < Number(items[i - 1]!.publicId));
}

const totalOf = (body: { total: number; totalRelation: string }) => [body.total, body.totalRelation];

const seeded = await seedTasks();
const taskIds = seeded.map((t) => t.id);

describe('search totals', () => {
  test('a text search stops counting at 1,000 and says so; every match is still walked', async () => {
    const search = '/v1/tasks/search?expand=none';
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&name=alpha`)), [1000, 'gte']);
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&name=beta`)), [151, 'eq']);
    // Two fields, any: the total counts the matches of either, bounded the same way.
    const any = `${search}&name=beta&description=nothing&matchMode=any`;
    assert.deepEqual(totalOf(await answer(f.owner, any)), [151, 'eq']);
    const both = `${search}&name=alpha&description=nothing&matchMode=any`;
    assert.deepEqual(totalOf(await answer(f.owner, both)), [1000, 'gte']);
    // A related name is text too.
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&teamName=counting`)), [1000, 'gte']);
    // Many matches and few: the pages hold each once, newest first, in the same relative order.
    const all = await walk(`${search}&name=alpha`);
    assert.equal(new Set(all.map((t) => t.id)).size, SEEDED);
    assert.ok(newestFirst(all), 'the walk of 2,101 matches is not newest first');
    const some = await walk(`${search}&name=beta`);
    assert.deepEqual(
      some.map((t) => t.id),
      all.filter((t) => seeded.findIndex((s) => s.id === t.id) % 14 === 0).map((t) => t.id),
    );
  });

  test('two tiers: rows matching every field first, each tier newest first, across pages', async () => {
    const index = new Map(seeded.map((t, i) => [t.id, i]));
    const beta = (i: number) => i % 14 === 0;
    const gamma = (i: number) => i % 28 === 0 || i % 9 === 0;
    const found = await walk('/v1/tasks/search?expand=none&name=beta&description=gamma&matchMode=any');
    const tiers = found.map((t) => (beta(index.get(t.id)!) && gamma(index.get(t.id)!) ? 0 : 1));
    const wanted = seeded.filter((_, i) => beta(i) || gamma(i)).length;
    assert.equal(new Set(found.map((t) => t.id)).size, wanted);
    assert.equal(found.length, wanted);
    const firstRest = tiers.indexOf(1);
    assert.ok(firstRest > 0 && tiers.slice(firstRest).every((t) => t === 1), 'tiers out of order');
    assert.ok(newestFirst(found.slice(0, firstRest)) && newestFirst(found.slice(firstRest)));
  });

  test('filters alone count exactly, beyond 1,000 too', async () => {
    const byTeam = await answer(f.owner, `/v1/tasks/search?expand=none&teamId=${team.id}`);
    assert.deepEqual(totalOf(byTeam), [SEEDED, 'eq']);
    // A filter the counters do not answer is counted.
    const since = await answer(
      f.owner,
      `/v1/tasks/search?expand=none&teamId=${team.id}&updatedSince=2000-01-01T00:00:00Z`,
    );
    assert.deepEqual(totalOf(since), [SEEDED, 'eq']);
  });

  test('exactly 1,000 matches are counted exactly', async () => {
    const res = await f.owner.delete(`/v1/tasks/${taskIds[0]}`);
    assert.equal(res.status, 204);
    const before = await answer(f.owner, '/v1/tasks/search?expand=none&name=delta&includeDeleted=true');
    assert.deepEqual(totalOf(before), [1000, 'gte']);
    const body = await answer(f.owner, '/v1/tasks/search?expand=none&name=delta');
    assert.deepEqual(totalOf(body), [1000, 'eq']);
  });

  test('documents: the same bound through the list kit', async () => {
    for (let start = 0; start < SEEDED; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, SEEDED - start) }, async (_, i) => {
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
    assert.deepEqual(totalOf(await answer(f.owner, `${search}&teamId=${team.id}`)), [SEEDED, 'eq']);
    // A common word (2,101 matches) and a narrower search (1,111: "1" is a prefix of 1, 10…19,
    // 100…199, 1000…1999) list the documents they share in the same order, each once.
    const all = (await walk(`${search}&name=gamma`)) as unknown as { id: string; name: string }[];
    assert.equal(new Set(all.map((d) => d.id)).size, SEEDED);
    const ones = (await walk(`${search}&name=gamma+1`)) as unknown as { id: string; name: string }[];
    assert.equal(ones.length, 1111);
    assert.deepEqual(
      ones.map((d) => d.id),
      all.filter((d) => d.name.split(' ')[1]!.startsWith('1')).map((d) => d.id),
    );
  });

  test('lists with includeTotal count exactly; without it there is no total', async () => {
    await f.owner.post('/v1/projects', { name: 'Counted project', teamId: team.id });
    const counted = await answer(f.owner, '/v1/projects/list?includeTotal=true');
    assert.deepEqual(totalOf(counted), [1, 'eq']);
    const plain = await answer(f.owner, '/v1/projects/list');
    assert.deepEqual(Object.keys(plain).sort(), ['data', 'hasMore', 'nextCursor']);
  });
});
