// Faults a real Cairn cannot be made to produce, against a local stub: a proxy's HTML 502, a server that
// is down, a dropped connection, a timeout, 429 with Retry-After or RateLimit-Reset, 503, the deadline.
// And, through a stub proxy in front of a real Cairn, a create retried after its answer was lost exists once.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { CairnError, createClient } from '../src/index.ts';
import { startCairn } from './cairn.ts';
import { problem, type Stub, startStub } from './stub.ts';

const fast = { baseDelayMs: 10, maxDelayMs: 2000 };
const stubs: Stub[] = [];
after(async () => {
  for (const s of stubs) await s.close();
});
async function stub(...args: Parameters<typeof startStub>): Promise<Stub> {
  const s = await startStub(...args);
  stubs.push(s);
  return s;
}

async function failure(p: Promise<unknown>): Promise<CairnError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof CairnError, String(e));
    return e;
  }
  assert.fail('expected a CairnError');
}

describe('answers that are not the server’s', () => {
  test('a proxy’s HTML 502 is a CairnError with the status, not retried', async () => {
    const s = await stub((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    const e = await failure(createClient({ baseUrl: s.baseUrl, token: 't', retry: fast }).getMe());
    assert.equal(e.status, 502);
    assert.equal(e.code, 'unexpected_response');
    assert.match(e.detail ?? '', /^HTTP 502 without a problem\+json body: <html>/);
    assert.equal(s.requests.length, 1);
  });

  test('a server that is down, or a wrong base URL, is network_error after the retries', async () => {
    const s = await stub(() => {});
    const down = s.baseUrl;
    await s.close();
    const e = await failure(
      createClient({ baseUrl: down, token: 't', retry: { ...fast, maxAttempts: 3 } }).getMe(),
    );
    assert.equal(e.code, 'network_error');
    assert.equal(e.status, 0);
    assert.match(e.detail ?? '', /ECONNREFUSED/);
  });

  test('no answer within timeoutMs is a timeout, retried like a dropped connection', async () => {
    const s = await stub((_req, res, nth) => {
      if (nth === 2) problem(200, 'ok')(res);
    });
    const started = Date.now();
    const api = createClient({ baseUrl: s.baseUrl, token: 't', timeoutMs: 200, retry: fast });
    await api.getMe();
    assert.equal(s.requests.length, 2);
    assert.ok(Date.now() - started >= 200);
    const hang = await stub(() => {});
    const e = await failure(
      createClient({ baseUrl: hang.baseUrl, token: 't', timeoutMs: 100, retry: false }).getMe(),
    );
    assert.equal(e.code, 'timeout');
    assert.equal(e.status, 0);
  });
});

describe('retries', () => {
  test('429 waits the Retry-After it is given, then succeeds', async () => {
    const s = await stub((_req, res, nth) => {
      if (nth === 1) return problem(429, 'rate_limited', { 'retry-after': '1' })(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const data = await createClient({ baseUrl: s.baseUrl, token: 't', retry: fast }).getMe();
    assert.deepEqual(data, { ok: true });
    const gap = s.requests[1]!.at - s.requests[0]!.at;
    assert.ok(gap >= 1000 && gap < 1800, `${gap} ms`);
  });

  test('429 without Retry-After waits RateLimit-Reset; 503 backs off; giving up keeps the last answer', async () => {
    const s = await stub((_req, res, nth) => {
      if (nth === 1) return problem(429, 'rate_limited', { 'ratelimit-reset': '1' })(res);
      problem(503, 'unavailable')(res);
    });
    const e = await failure(
      createClient({ baseUrl: s.baseUrl, token: 't', retry: { ...fast, maxAttempts: 4 } }).getMe(),
    );
    assert.equal(e.status, 503);
    assert.equal(e.code, 'unavailable');
    assert.equal(e.requestId, 'req-1');
    assert.equal(s.requests.length, 4);
    const gaps = s.requests.slice(1).map((r, i) => r.at - s.requests[i]!.at);
    assert.ok(gaps[0]! >= 1000, `RateLimit-Reset: ${gaps}`);
    assert.ok(gaps[1]! < 200 && gaps[2]! < 200, `backoff from 10 ms: ${gaps}`);
  });

  test('the deadline stops a wait that would end past it', async () => {
    const s = await stub((_req, res) => problem(503, 'unavailable', { 'retry-after': '5' })(res));
    const started = Date.now();
    const e = await failure(
      createClient({
        baseUrl: s.baseUrl,
        token: 't',
        retry: { ...fast, maxDelayMs: 10_000, deadlineMs: 2000 },
      }).getMe(),
    );
    assert.equal(e.status, 503);
    assert.equal(e.retryAfter, 5);
    assert.equal(s.requests.length, 1);
    assert.ok(Date.now() - started < 1000);
  });

  test('a POST is retried with the Idempotency-Key of its first attempt', async () => {
    const s = await stub((_req, res, nth) => {
      if (nth === 1) return res.socket?.destroy();
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"id":"x"}');
    });
    const api = createClient({ baseUrl: s.baseUrl, token: 't', retry: fast });
    await api.upsertTask({ body: { name: 'x' } });
    assert.equal(s.requests.length, 2);
    const keys = s.requests.map((r) => r.headers['idempotency-key']);
    assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0]);
  });

  test('a 409 marked "still running" is retried with the same key, like a 429; any other 409 is final', async () => {
    const running = { errors: [{ path: '/headers/idempotency-key', message: 'is still running' }] };
    const s = await stub((_req, res, nth) => {
      if (nth <= 2) return problem(409, 'conflict', {}, running)(res);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"id":"x"}');
    });
    const api = createClient({ baseUrl: s.baseUrl, token: 't', retry: fast });
    assert.deepEqual(await api.upsertTeam({ body: { name: 'x' } }), { id: 'x' });
    assert.equal(s.requests.length, 3);
    const keys = s.requests.map((r) => r.headers['idempotency-key']);
    assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
    assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);

    // Within the retry budget: still running at the last attempt gives up with the server's answer.
    const busy = await stub((_req, res) => problem(409, 'conflict', {}, running)(res));
    const e = await failure(
      createClient({ baseUrl: busy.baseUrl, token: 't', retry: { ...fast, maxAttempts: 3 } }).upsertTeam({
        body: { name: 'x' },
      }),
    );
    assert.equal(e.code, 'conflict');
    assert.deepEqual(e.errors, running.errors);
    assert.equal(busy.requests.length, 3);

    // A 409 without the marker (a lost race, a key whose answer cannot be replayed) is not retried,
    // not even after an attempt that got no answer.
    const conflict = await stub((_req, res, nth) => {
      if (nth === 1) return res.socket?.destroy();
      problem(409, 'conflict')(res);
    });
    const final = await failure(
      createClient({ baseUrl: conflict.baseUrl, token: 't', retry: fast }).upsertTeam({
        body: { name: 'x' },
      }),
    );
    assert.equal(final.code, 'conflict');
    assert.deepEqual(final.errors, []);
    assert.equal(conflict.requests.length, 2);
  });

  test('a POST without an Idempotency-Key is sent once, whatever happens to it', async () => {
    const s = await stub((_req, res) => res.socket?.destroy());
    const api = createClient({ baseUrl: s.baseUrl, token: 't', retry: fast });
    const withoutKey = {
      onRequest: ({ request }: { request: Request }) => {
        request.headers.delete('idempotency-key');
        return request;
      },
    };
    const e = await failure(
      api.raw.POST('/v1/tasks', { body: { name: 'y' } as never, middleware: [withoutKey] }),
    );
    assert.equal(e.code, 'network_error');
    assert.equal(s.requests.length, 1);
    assert.equal(s.requests[0]!.headers['idempotency-key'], undefined);
  });
});

describe('a create whose answer was lost', () => {
  test('exists once: the proxy drops the first answer, the retry gets the first create’s', async () => {
    const cairn = await startCairn();
    const target = new URL(cairn.baseUrl);
    let forwarded = 0;
    // Forwards every request to Cairn; the first answer is read in full, then the client's connection
    // is destroyed instead of answering: the create happened, the client never heard.
    const proxy = await stub((req, res, _nth, body) => {
      forwarded += 1;
      const nth = forwarded;
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            if (nth === 1) return res.socket?.destroy();
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          });
        },
      );
      upstream.end(body);
    });
    const api = createClient({ baseUrl: proxy.baseUrl, token: cairn.token, retry: fast });
    const team = await api.upsertTeam({ body: { name: 'Once' } });
    assert.equal(forwarded, 2, 'the create was sent twice');
    const teams = await cairn.client().searchTeams();
    assert.deepEqual(
      teams.data.filter((t) => t.name === 'Once').map((t) => t.id),
      [team.id],
    );
  });
});
