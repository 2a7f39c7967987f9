import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { client, problem, setup } from '../test/helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limits', async () => {
  const f = await setup(undefined, { CAIRN_RATE_LIMIT: '5', CAIRN_RATE_LIMIT_UNAUTHENTICATED: '3' });
  // Made by the owner, whose own budget that spends; each has a whole one of their own.
  const one = await f.newUser('member');
  const other = await f.newUser('member');

  test('every /v1 answer says the budget; over it is 429 rate_limited with Retry-After', async () => {
    const seen: [number, string, string][] = [];
    for (let i = 0; i < 5; i++) {
      // Errors count and carry the headers too.
      const res = i === 2 ? await one.api.get('/v1/tasks/999999') : await one.api.get('/v1/me');
      seen.push([
        res.status,
        String(res.headers['ratelimit-limit']),
        String(res.headers['ratelimit-remaining']),
      ]);
      const reset = Number(res.headers['ratelimit-reset']);
      assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
    }
    assert.deepEqual(seen, [
      [200, '5', '4'],
      [200, '5', '3'],
      [404, '5', '2'],
      [200, '5', '1'],
      [200, '5', '0'],
    ]);
    const over = await one.api.post('/v1/teams', { name: 'Not made' });
    const body = problem(over, 429, 'rate_limited');
    assert.match(body.detail, /more than 5 requests in a minute; retry in \d+ (seconds?|minutes?)/);
    const retry = Number(over.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`);
    assert.equal(over.headers['ratelimit-remaining'], '0');
    // Nothing was done: that budget is spent, so look as the other user.
    const teams = await other.api.get('/v1/teams/search');
    assert.equal(teams.status, 200);
    assert.equal(
      teams.body.data.some((t: { name: string }) => t.name === 'Not made'),
      false,
    );
  });

  test('each token has its own budget', async () => {
    const res = await other.api.get('/v1/me');
    assert.equal(res.status, 200);
    assert.equal(res.headers['ratelimit-remaining'], '3');
  });

  test('requests without a valid token spend their address’s budget, and bad tokens count', async () => {
    const bogus = client(f.app, 'cairn_not-a-token');
    const statuses = [
      (await f.anonymous.get('/v1/me')).status,
      (await bogus.get('/v1/me')).status,
      (await client(f.app, 'cairn_another-guess').get('/v1/me')).status,
    ];
    assert.deepEqual(statuses, [401, 401, 401]);
    const over = await client(f.app, 'cairn_a-fourth-guess').get('/v1/me');
    problem(over, 429, 'rate_limited');
    assert.match(over.body.detail, /without a valid API token from this address/);
  });

  test('health checks and the API description are never limited', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await f.anonymous.get('/healthz');
      assert.equal(res.status, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
    assert.equal((await f.anonymous.get('/openapi.json')).status, 200);
  });

  test('with REDIS_URL, processes share one budget per token', async () => {
    const config = loadConfig({
      CAIRN_PUBLIC_URL: 'http://cairn.test',
      CAIRN_RATE_LIMIT: '4',
      REDIS_URL,
    });
    const apps = [
      await buildApp({ config, database: f.database, logger: false }),
      await buildApp({ config, database: f.database, logger: false }),
    ];
    after(() => Promise.all(apps.map((a) => a.close())));
    // A token of its own, so that no other run sharing this Redis counts against it.
    const made = (await client(apps[0]!, f.ws.token).post('/v1/api-tokens', { name: 'shared' })).body.token;
    assert.equal(typeof made, 'string');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await client(apps[i % 2]!, made).get('/v1/me')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  });
});

describe('the text-search budget', async () => {
  const f = await setup(undefined, { CAIRN_RATE_LIMIT: '100', CAIRN_RATE_LIMIT_SEARCH: '3' });
  const team = (await f.owner.post('/v1/teams', { name: 'Seekers' })).body;

  test('text searches share a lower budget of their own; lists through /search and reads do not spend it', async () => {
    const searches = [
      '/v1/tasks/search?name=plan',
      '/v1/documents/search?description=plan',
      '/v1/teams/search?name=seek',
    ];
    for (const path of searches) {
      const res = await f.owner.get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['ratelimit-limit'], '3');
    }
    const over = await f.owner.get('/v1/projects/search?teamName=seekers');
    const body = problem(over, 429, 'rate_limited');
    assert.match(body.detail, /more than 3 text searches in a minute \(searches have their own budget\)/);
    // A search without text is a list: the general budget, which is untouched by the searches.
    const list = await f.owner.get(`/v1/tasks/search?teamId=${team.id}&name=`);
    assert.equal(list.status, 200);
    assert.equal(list.headers['ratelimit-limit'], '100');
    assert.equal(list.headers['ratelimit-remaining'], '98', 'the team create and this list, nothing else');
    assert.equal((await f.owner.get('/v1/me')).status, 200);
  });
});
