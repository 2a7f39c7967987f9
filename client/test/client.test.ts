// The client against a real Cairn (SQLite and PostgreSQL passes): typed calls, errors by code,
// pagination, ETag with If-Match and If-None-Match, the idempotency key set on every POST, and a create
// still running under its key waited for.
import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { describe, test } from 'node:test';
import { claimKey, releaseKey } from '../../src/db/idempotency.ts';
import { CairnError, createClient, isCairnError } from '../src/index.ts';
import { startCairn } from './cairn.ts';

const cairn = await startCairn();
const api = cairn.client();
const team = await api.upsertTeam({ body: { name: 'Engineering' } });

async function rejects(p: Promise<unknown>, status: number, code: string): Promise<CairnError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof CairnError, String(e));
    assert.equal(e.status, status, e.message);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${status} ${code}`);
}

describe('calls', () => {
  test('a create answers the typed resource; a get reads it back by id or publicId', async () => {
    const task = await api.upsertTask({ body: { name: 'Write the client', teamId: team.id } });
    assert.equal(task.name, 'Write the client');
    assert.equal(task.team?.id, team.id);
    const read = await api.getTask({ params: { path: { id: String(task.publicId) } } });
    assert.deepEqual(read, task);
  });

  test('every POST carries an Idempotency-Key of its own; a given one is sent as is', async () => {
    const seen: (string | null)[] = [];
    const spy = cairn.client({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(request.headers.get('idempotency-key'));
        return fetch(request);
      },
    });
    await spy.upsertTask({ body: { name: 'One', teamId: team.id } });
    await spy.upsertTask({ body: { name: 'Two', teamId: team.id } });
    await spy.getMe();
    const again = await spy.upsertTask({
      body: { name: 'Three', teamId: team.id },
      idempotencyKey: 'k-1',
    });
    const replay = await spy.upsertTask({
      body: { name: 'Three', teamId: team.id },
      idempotencyKey: 'k-1',
    });
    assert.equal(replay.id, again.id, 'the same key answers the first create');
    assert.match(seen[0]!, /^[0-9a-f-]{36}$/);
    assert.notEqual(seen[0], seen[1]);
    assert.deepEqual(seen.slice(2), [null, 'k-1', 'k-1']);
  });
  test('without a token, the session-cookie mode: no Authorization, credentials include', async () => {
    const seen: { auth: string | null; credentials: string }[] = [];
    const browser = createClient({
      baseUrl: cairn.baseUrl,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push({ auth: request.headers.get('authorization'), credentials: request.credentials });
        return fetch(request);
      },
    });
    await assert.rejects(browser.getMe(), (e) => isCairnError(e, 'unauthenticated'));
    await api.getMe();
    assert.deepEqual(seen, [{ auth: null, credentials: 'include' }]);
  });
});

describe('a create still running under the same Idempotency-Key', () => {
  test('is waited for: the retry, with the same key, gets the first request’s answer', async () => {
    const { db } = cairn.f.database;
    const { id: tokenId } = await db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', cairn.f.ws.user.id)
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    const key = `running-${Date.now()}`;
    const body = { name: 'Running' };
    // A first request with this key has claimed it and is still running (as another process would).
    const claim = {
      tokenId,
      key,
      method: 'POST',
      path: '/v1/teams',
      bodyHash: hash('sha256', JSON.stringify(body), 'base64url'),
    };
    assert.ok(await claimKey(db, claim, new Date().toISOString()));
    const seen: { key: string | null; status: number; replayed: string | null }[] = [];
    let first: { id: string } | undefined;
    const waiting = cairn.client({
      retry: { baseDelayMs: 10 },
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const response = await fetch(request);
        seen.push({
          key: request.headers.get('idempotency-key'),
          status: response.status,
          replayed: response.headers.get('idempotent-replayed'),
        });
        if (response.status === 409 && !first) {
          // The first request finishes meanwhile: it runs, and its answer is kept under the key.
          await releaseKey(db, tokenId, key);
          first = await api.upsertTeam({ body, idempotencyKey: key });
        }
        return response;
      },
    });
    const made = await waiting.upsertTeam({ body, idempotencyKey: key });
    assert.equal(made.id, first?.id);
    assert.deepEqual(seen, [
      { key, status: 409, replayed: null },
      { key, status: 201, replayed: 'true' },
    ]);
    const teams = await api.searchTeams({ params: { query: { name: 'Running' } } });
    assert.deepEqual(
      teams.data.filter((t) => t.name === 'Running').map((t) => t.id),
      [made.id],
    );
  });
});

describe('errors', () => {
  test('401, 404, 400 with field errors, 409 and 422 are CairnErrors with the problem’s fields', async () => {
    const stranger = cairn.client({ token: 'not-a-token' });
    const e401 = await rejects(stranger.getMe(), 401, 'unauthenticated');
    assert.match(e401.requestId ?? '', /.+/);
    const e404 = await rejects(
      api.getTask({ params: { path: { id: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10' } } }),
      404,
      'not_found',
    );
    assert.equal(e404.detail, 'Task not found');
    assert.ok(isCairnError(e404, 'not_found'));
    const e400 = await rejects(
      // biome-ignore lint/suspicious/noExplicitAny: a body the types refuse, to see the server refuse it.
      api.upsertTask({ body: { teamId: team.id } as any }),
      400,
      'validation_failed',
    );
    assert.deepEqual(
      e400.errors.map((e) => e.path),
      ['/body/name'],
    );
    const task = await api.upsertTask({ body: { name: 'Gone', teamId: team.id } });
    await api.deleteTask({ params: { path: { id: task.id } } });
    await rejects(api.upsertTask({ body: { id: task.id, name: 'Back?' } }), 409, 'deleted');
    await api.upsertTask({ body: { name: 'Once', teamId: team.id }, idempotencyKey: 'reuse' });
    await rejects(
      api.upsertTask({ body: { name: 'Other', teamId: team.id }, idempotencyKey: 'reuse' }),
      422,
      'idempotency_key_reused',
    );
  });

  test('an update with a stale ETag is 412 precondition_failed and changes nothing', async () => {
    const task = await api.upsertTask({ body: { name: 'Versioned', teamId: team.id } });
    const { data, etag } = await api.getWithETag('getTask', { params: { path: { id: task.id } } });
    assert.equal(data.name, 'Versioned');
    assert.match(etag ?? '', /^(W\/)?".+"$/);
    const renamed = await api.upsertTask({ body: { id: task.id, name: 'Renamed' }, ifMatch: etag });
    assert.equal(renamed.name, 'Renamed');
    const stale = await rejects(
      api.upsertTask({ body: { id: task.id, name: 'Lost update' }, ifMatch: etag }),
      412,
      'precondition_failed',
    );
    assert.ok(isCairnError(stale, 'precondition_failed'));
    const now = await api.getTask({ params: { path: { id: task.id } } });
    assert.equal(now.name, 'Renamed');
  });

  test('getWithETag with an etag revalidates: notModified while unchanged, the new data once changed', async () => {
    const task = await api.upsertTask({ body: { name: 'Cached', teamId: team.id } });
    const path = { params: { path: { id: task.id } } };
    const first = await api.getWithETag('getTask', path);
    assert.equal(first.notModified, false);
    const etag = first.etag!;
    assert.deepEqual(await api.getWithETag('getTask', { ...path, etag }), { notModified: true, etag });
    // What the server answered: 304, no body, the same ETag.
    const raw = await api.raw.GET('/v1/tasks/{id}', { ...path, headers: { 'if-none-match': etag } });
    assert.equal(raw.response.status, 304);
    assert.equal(raw.response.headers.get('etag'), etag);
    await api.upsertTask({ body: { id: task.id, name: 'Cached, then changed' } });
    const changed = await api.getWithETag('getTask', { ...path, etag });
    assert.equal(changed.notModified, false);
    if (changed.notModified) return;
    assert.equal(changed.data.name, 'Cached, then changed');
    assert.notEqual(changed.etag, etag);
    assert.match(changed.etag ?? '', /^(W\/)?".+"$/);
    // Any resource with an ETag revalidates the same way: a team.
    const t = await api.getWithETag('getTeam', { params: { path: { id: team.id } } });
    const again = await api.getWithETag('getTeam', {
      params: { path: { id: team.id } },
      etag: t.etag!,
    });
    assert.equal(again.notModified, true);
    // An etag of nothing is no 304: a missing task is still 404.
    await rejects(
      api.getWithETag('getTask', { params: { path: { id: 'ENG-99999' } }, etag }),
      404,
      'not_found',
    );
  });
});

describe('paginate', () => {
  test('walks every page of a search once, with the page size asked for', async () => {
    const project = await api.upsertProject({ body: { name: 'Walked', teamId: team.id } });
    const made = new Set<string>();
    for (let i = 0; i < 7; i++) {
      made.add(
        (await api.upsertTask({ body: { name: `Step ${i}`, teamId: team.id, projectId: project.id } })).id,
      );
    }
    const limits: string[] = [];
    const counting = cairn.client({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        limits.push(new URL(request.url).searchParams.get('limit') ?? '');
        return fetch(request);
      },
    });
    const walked: string[] = [];
    for await (const task of counting.paginate('searchTasks', {
      params: { query: { projectId: project.id } },
      pageSize: 3,
    })) {
      walked.push(task.id);
    }
    assert.equal(walked.length, 7);
    assert.deepEqual(new Set(walked), made);
    assert.deepEqual(limits, ['3', '3', '3']);
  });

  test('an AbortSignal stops the walk', async () => {
    const controller = new AbortController();
    const walked: string[] = [];
    await assert.rejects(async () => {
      for await (const task of api.paginate('searchTasks', { pageSize: 2, signal: controller.signal })) {
        walked.push(task.id);
        if (walked.length === 3) controller.abort();
      }
    }, /abort/i);
    assert.equal(walked.length, 3);
  });
});
