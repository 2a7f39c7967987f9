import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { purgeKeys, releaseKey } from '../db/idempotency.ts';
import { client, problem, setup } from '../test/helpers.ts';
import { STILL_RUNNING } from './idempotency.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Once' })).body;
let n = 0;
const newKey = () => `key-${Date.now()}-${++n}`;

async function tasksNamed(name: string): Promise<number> {
  const res = await f.owner.get(`/v1/tasks/search?name=${encodeURIComponent(name)}&expand=none&limit=100`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.filter((t: { name: string }) => t.name === name).length;
}

describe('Idempotency-Key', () => {
  test('a retry gets the first answer (status, body, ETag) and nothing is done again', async () => {
    const key = newKey();
    const body = { name: 'Made once', teamId: team.id };
    const first = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.match(String(again.headers['content-type']), /^application\/json/);
    assert.notEqual(again.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(await tasksNamed('Made once'), 1);
  });

  test('another body, path or method with the same key is 422 idempotency_key_reused', async () => {
    const key = newKey();
    assert.equal(
      (
        await f.owner.post(
          '/v1/tasks?expand=none',
          { name: 'Keyed', teamId: team.id },
          { 'idempotency-key': key },
        )
      ).status,
      201,
    );
    const other = await f.owner.post(
      '/v1/tasks?expand=none',
      { name: 'Other', teamId: team.id },
      { 'idempotency-key': key },
    );
    problem(other, 422, 'idempotency_key_reused');
    const path = await f.owner.post(
      '/v1/tasks?expand=all',
      { name: 'Keyed', teamId: team.id },
      { 'idempotency-key': key },
    );
    problem(path, 422, 'idempotency_key_reused');
    assert.equal(await tasksNamed('Other'), 0);
  });

  test('keys must be 1 to 255 visible ASCII characters', async () => {
    for (const key of ['x'.repeat(256), 'has space', 'ünicode', '']) {
      const res = await f.owner.post(
        '/v1/tasks?expand=none',
        { name: 'Bad key', teamId: team.id },
        { 'idempotency-key': key },
      );
      const body = problem(res, 400, 'validation_failed');
      assert.deepEqual(body.errors, [
        { path: '/headers/idempotency-key', message: 'must be 1 to 255 visible ASCII characters' },
      ]);
    }
    const longest = await f.owner.post(
      '/v1/tasks?expand=none',
      { name: 'Long key', teamId: team.id },
      {
        'idempotency-key': 'k'.repeat(255),
      },
    );
    assert.equal(longest.status, 201);
    assert.equal(await tasksNamed('Bad key'), 0);
  });

  test('error answers are kept and replayed too; a validation failure is not (the fix can reuse the key)', async () => {
    const key = newKey();
    const missing = { name: 'Nowhere', teamId: '00000000-0000-4000-8000-000000000000' };
    const first = await f.owner.post('/v1/tasks?expand=none', missing, { 'idempotency-key': key });
    problem(first, 400, 'validation_failed');
    const again = await f.owner.post('/v1/tasks?expand=none', missing, { 'idempotency-key': key });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    // Schema failures stop before the key is taken.
    const key2 = newKey();
    problem(
      await f.owner.post('/v1/tasks?expand=none', { name: 5 }, { 'idempotency-key': key2 }),
      400,
      'validation_failed',
    );
    const fixed = await f.owner.post(
      '/v1/tasks?expand=none',
      { name: 'Fixed', teamId: team.id },
      { 'idempotency-key': key2 },
    );
    assert.equal(fixed.status, 201);
  });

  test('keys belong to a token; a key still running is 409; a running key whose process died is taken over', async () => {
    const key = newKey();
    const member = await f.newUser('member');
    const body = { name: 'Per token', teamId: team.id };
    assert.equal((await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key })).status, 201);
    const theirs = await member.api.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);

    // The owner's first token (the one f.owner holds) is the oldest of theirs.
    const { id: tokenId } = await f.database.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', f.ws.user.id)
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    const running = newKey();
    const row = (at: string) => ({
      token_id: tokenId,
      key: running,
      method: 'POST',
      path: '/v1/tasks?expand=none',
      body_hash: hash('sha256', JSON.stringify(body), 'base64url'),
      status_code: null,
      response_headers: null,
      response_body: null,
      created_at: at,
      committed_at: null,
    });
    await f.database.db.insertInto('idempotency_keys').values(row(new Date().toISOString())).execute();
    // Still running: the one 409 marked as worth retrying with the same key (errors names the key).
    const busy = problem(
      await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': running }),
      409,
      'conflict',
    );
    assert.deepEqual(busy.errors, [
      {
        path: '/headers/idempotency-key',
        message: 'is still running in another request; retry shortly with the same key',
      },
    ]);
    assert.equal(
      busy.detail,
      'A request with this Idempotency-Key is still running; retry shortly with the same key',
    );
    await f.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 120_000).toISOString() })
      .where('key', '=', running)
      .execute();
    const before = await tasksNamed('Per token');
    const retaken = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': running });
    assert.equal(retaken.status, 201);
    assert.equal(retaken.headers['idempotent-replayed'], undefined);
    assert.equal(await tasksNamed('Per token'), before + 1);
  });

  test('a change that committed but whose answer was never kept is not done again: 409', async () => {
    const key = newKey();
    const body = { name: 'Committed once', teamId: team.id };
    const first = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    assert.equal(first.status, 201);
    const kept = await f.database.db
      .selectFrom('idempotency_keys')
      .select(['created_at', 'committed_at'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    assert.notEqual(kept.committed_at, null, 'the change marked its key committed');
    // As if the process died between the commit and keeping the answer, two minutes ago.
    await f.database.db
      .updateTable('idempotency_keys')
      .set({
        status_code: null,
        response_headers: null,
        response_body: null,
        created_at: new Date(Date.now() - 120_000).toISOString(),
      })
      .where('key', '=', key)
      .execute();
    const retry = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    const problemBody = problem(retry, 409, 'conflict');
    assert.match(problemBody.detail, /was carried out, but the server stopped before its answer was kept/);
    assert.equal(problemBody.errors, undefined, 'not marked still running: a retry cannot help');
    assert.equal(await tasksNamed('Committed once'), 1);

    // A batch marks its key too; a request that fails inside its transaction does not.
    const batchKey = newKey();
    const batch = await f.owner.post(
      '/v1/tasks/batch?expand=none',
      { tasks: [{ name: 'Batched once', teamId: team.id }] },
      { 'idempotency-key': batchKey },
    );
    assert.equal(batch.status, 200);
    const failKey = newKey();
    const missing = await f.owner.post(
      '/v1/tasks?expand=none',
      { id: '00000000-0000-4000-8000-000000000000', name: 'Nothing' },
      { 'idempotency-key': failKey },
    );
    problem(missing, 404, 'not_found');
    const marks = await f.database.db
      .selectFrom('idempotency_keys')
      .select(['key', 'committed_at'])
      .where('key', 'in', [batchKey, failKey])
      .execute();
    const committed = Object.fromEntries(marks.map((m) => [m.key, m.committed_at !== null]));
    assert.deepEqual(committed, { [batchKey]: true, [failKey]: false });

    // A 5xx gives a key back so that the retry runs, unless the change had committed before it.
    const { id: tokenId } = await f.database.db
      .selectFrom('idempotency_keys')
      .select('token_id as id')
      .where('key', '=', batchKey)
      .executeTakeFirstOrThrow();
    await f.database.db
      .updateTable('idempotency_keys')
      .set({ status_code: null, response_headers: null, response_body: null })
      .where('key', '=', batchKey)
      .execute();
    await releaseKey(f.database.db, tokenId, batchKey);
    await releaseKey(f.database.db, tokenId, failKey);
    const left = await f.database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', [batchKey, failKey])
      .execute();
    assert.deepEqual(
      left.map((r) => r.key),
      [batchKey],
    );
  });

  test('parallel retries with one key: the work is done once', async () => {
    const key = newKey();
    const body = { name: 'Raced once', teamId: team.id };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key }),
      ),
    );
    for (const a of answers) {
      assert.ok(a.status === 201 || a.status === 409, `${a.status} ${JSON.stringify(a.body)}`);
      if (a.status === 409) assert.deepEqual(a.body.errors, [STILL_RUNNING], 'a 409 here is "still running"');
    }
    const firsts = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
    assert.equal(firsts.length, 1);
    assert.equal(await tasksNamed('Raced once'), 1);
  });

  test('kept in the database: another process replays it; expired keys run again and are purged', async () => {
    const key = newKey();
    const body = { name: 'Across processes', teamId: team.id };
    const first = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    const other = await buildApp({
      config: loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test', CAIRN_RATE_LIMIT: '1000000' }),
      database: f.database,
      logger: false,
    });
    after(() => other.close());
    const replayed = await client(other, f.ws.token).post('/v1/tasks?expand=none', body, {
      'idempotency-key': key,
    });
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replayed.body, first.body);

    const day = new Date(Date.now() - 25 * 3600_000).toISOString();
    await f.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: day })
      .where('key', '=', key)
      .execute();
    const fresh = await f.owner.post('/v1/tasks?expand=none', body, { 'idempotency-key': key });
    assert.equal(fresh.status, 201);
    assert.equal(fresh.headers['idempotent-replayed'], undefined);
    assert.equal(await tasksNamed('Across processes'), 2);

    const old = newKey();
    await f.owner.post(
      '/v1/tasks?expand=none',
      { name: 'Purged', teamId: team.id },
      { 'idempotency-key': old },
    );
    await f.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: day })
      .where('key', '=', old)
      .execute();
    assert.equal(await purgeKeys(f.database.db, new Date(Date.now() - 24 * 3600_000).toISOString(), 100), 1);
    const left = await f.database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', old)
      .execute();
    assert.deepEqual(left, []);
  });

  test('an answer holding a secret shown once is not kept: the retry is 409, and no secret is stored', async () => {
    const key = newKey();
    const made = await f.owner.post('/v1/api-tokens', { name: 'Once only' }, { 'idempotency-key': key });
    assert.equal(made.status, 201);
    const again = await f.owner.post('/v1/api-tokens', { name: 'Once only' }, { 'idempotency-key': key });
    const body = problem(again, 409, 'conflict');
    assert.match(body.detail, /succeeded \(201\); its answer held a secret that is shown only once/);
    assert.equal(body.errors, undefined, 'not marked still running: a retry cannot help');
    const stored = await f.database.db
      .selectFrom('idempotency_keys')
      .select(['status_code', 'response_body'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    assert.deepEqual({ ...stored }, { status_code: 201, response_body: null });
  });
});
