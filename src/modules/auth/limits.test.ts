// Failed sign-ins locked out per email and per address (lockout.ts), shared through Redis; and the
// API's request budget for signed-in requests (http/rate-limit.ts), by user.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { App } from '../../http/app-type.ts';
import { problem, type Response, setUserPassword, setup, signInClient } from '../../test/helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'gravel path to the lake';
/** Short enough to wait out in a test; long enough for a few hashes. */
const LOCKOUT_SECONDS = 2;
const LIMITS = {
  CAIRN_SIGN_IN_ACCOUNT_FAILURES: '3',
  CAIRN_SIGN_IN_ADDRESS_FAILURES: '5',
  CAIRN_SIGN_IN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS),
};

/** Addresses of their own per run, so that runs sharing one Redis never count against each other. */
const address = () => `10.${randomBytes(3).join('.')}`;

async function attempt(app: App, body: Record<string, string>, remoteAddress: string): Promise<Response> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/auth/sign-in',
    payload: body,
    headers: { origin: 'http://cairn.test' },
    remoteAddress,
  });
  return { status: res.statusCode, headers: res.headers as Response['headers'], body: res.json() };
}

/** Every log record a request of the app writes, to see what a failure logs. */
function captureLogs(app: App): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  const write = (level: string) => (object: unknown, message?: string) => {
    records.push({ level, ...(typeof object === 'object' ? object : { message: object }), message });
  };
  const logger = {
    level: 'info',
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    debug: write('debug'),
    trace: write('trace'),
    fatal: write('fatal'),
    silent: () => {},
    child: () => logger,
  } as unknown as FastifyBaseLogger;
  app.addHook('onRequest', async (request) => {
    request.log = logger;
  });
  return records;
}

describe('failed sign-ins are limited', async () => {
  const f = await setup(undefined, LIMITS);
  const logs = captureLogs(f.app);
  const person = async (name: string) => {
    const user = await f.newUser('member', name);
    await setUserPassword(f.database, f.ws.workspace.id, user.id, PASSWORD);
    return user.email;
  };

  test('per email: after 3 failures even the right password is 429 with Retry-After, until the lockout ends', async () => {
    const email = await person('Lou Locked');
    for (let i = 0; i < 3; i++) {
      problem(await attempt(f.app, { email, password: `wrong ${i}` }, address()), 401, 'invalid_credentials');
    }
    const locked = await attempt(f.app, { email, password: PASSWORD }, address());
    const body = problem(locked, 429, 'rate_limited');
    assert.equal(body.detail, `Too many failed sign-ins for this email; retry in ${LOCKOUT_SECONDS} seconds`);
    assert.equal(locked.headers['retry-after'], String(LOCKOUT_SECONDS));
    assert.equal(locked.headers['set-cookie'], undefined);
    await sleep(LOCKOUT_SECONDS * 1000 + 100);
    assert.equal((await attempt(f.app, { email, password: PASSWORD }, address())).status, 200);
  });

  test('an unknown email locks the same way (a lockout reveals no account)', async () => {
    const email = `nobody-${randomBytes(4).toString('hex')}@acme.test`;
    for (let i = 0; i < 3; i++)
      problem(await attempt(f.app, { email, password: PASSWORD }, address()), 401, 'invalid_credentials');
    const body = problem(await attempt(f.app, { email, password: PASSWORD }, address()), 429, 'rate_limited');
    assert.equal(body.detail, `Too many failed sign-ins for this email; retry in ${LOCKOUT_SECONDS} seconds`);
  });

  test('a success forgets the email’s failures', async () => {
    const email = await person('Sue Success');
    const from = address();
    for (const password of ['wrong 1', 'wrong 2', PASSWORD, 'wrong 3', 'wrong 4', PASSWORD]) {
      const res = await attempt(f.app, { email, password }, from);
      assert.equal(res.status, password === PASSWORD ? 200 : 401, JSON.stringify(res.body));
    }
  });

  test('per address: 5 failures from one address lock it for every email; other addresses go on', async () => {
    const email = await person('Ada Address');
    const from = address();
    for (let i = 0; i < 5; i++) {
      problem(
        await attempt(f.app, { email: `guess${i}@acme.test`, password: 'wrong' }, from),
        401,
        'invalid_credentials',
      );
    }
    const body = problem(await attempt(f.app, { email, password: PASSWORD }, from), 429, 'rate_limited');
    assert.equal(
      body.detail,
      `Too many failed sign-ins from this address; retry in ${LOCKOUT_SECONDS} seconds`,
    );
    assert.equal((await attempt(f.app, { email, password: PASSWORD }, address())).status, 200);
  });

  test('failures are logged with the email and address, never the password', async () => {
    const email = await person('Leo Logged');
    const from = address();
    logs.length = 0;
    await attempt(f.app, { email, password: 'Hunter2-secret-guess' }, from);
    await attempt(f.app, { email: 'ghost@acme.test', password: 'Another-secret-guess' }, from);
    const failures = logs.filter((r) => r.message === 'sign-in failed');
    assert.deepEqual(failures, [
      { level: 'warn', email, address: from, knownEmail: true, message: 'sign-in failed' },
      {
        level: 'warn',
        email: 'ghost@acme.test',
        address: from,
        knownEmail: false,
        message: 'sign-in failed',
      },
    ]);
    assert.equal(JSON.stringify(logs).includes('secret-guess'), false);
  });

  test('a wrong current password counts too: a session cannot be used to guess its password', async () => {
    const email = await person('Gus Guessed');
    const { api } = await signInClient(f.app, email, PASSWORD);
    const change = (currentPassword: string) =>
      api.post('/v1/auth/password', { currentPassword, newPassword: 'a fresh long phrase 1' });
    for (let i = 0; i < 3; i++) problem(await change(`guess ${i}`), 400, 'validation_failed');
    problem(await change(PASSWORD), 429, 'rate_limited');
  });
});

describe('with REDIS_URL, processes share the lockout', async () => {
  const f = await setup();
  const config = loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test', REDIS_URL, ...LIMITS });
  const apps = [
    await buildApp({ config, database: f.database, logger: false }),
    await buildApp({ config, database: f.database, logger: false }),
  ];
  after(() => Promise.all(apps.map((a) => a.close())));

  test('failures on one process lock the email on the other', async () => {
    const user = await f.newUser('member', 'Rhea Redis');
    await setUserPassword(f.database, f.ws.workspace.id, user.id, PASSWORD);
    for (let i = 0; i < 3; i++) {
      problem(
        await attempt(apps[i % 2]!, { email: user.email, password: 'wrong' }, address()),
        401,
        'invalid_credentials',
      );
    }
    for (const app of apps)
      problem(await attempt(app, { email: user.email, password: PASSWORD }, address()), 429, 'rate_limited');
  });
});

describe('the API budget of signed-in requests', async () => {
  const f = await setup(undefined, { CAIRN_RATE_LIMIT: '4' });
  const one = await f.newUser('member', 'Bea Budget');
  const other = await f.newUser('member', 'Ola Other');
  for (const u of [one, other]) await setUserPassword(f.database, f.ws.workspace.id, u.id, PASSWORD);

  test('is the user’s: two sessions of one person share it, another person has their own', async () => {
    const laptop = await signInClient(f.app, one.email, PASSWORD);
    const phone = await signInClient(f.app, one.email, PASSWORD);
    const remaining: string[] = [];
    for (const api of [laptop.api, phone.api, laptop.api, phone.api]) {
      remaining.push(String((await api.get('/v1/me')).headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['3', '2', '1', '0']);
    const over = problem(await phone.api.get('/v1/me'), 429, 'rate_limited');
    assert.match(over.detail, /^This user \(signed in\) made more than 4 requests in a minute/);
    const theirs = await signInClient(f.app, other.email, PASSWORD);
    assert.equal((await theirs.api.get('/v1/me')).headers['ratelimit-remaining'], '3');
  });
});

describe('behind a trusted proxy (CAIRN_TRUST_PROXY)', async () => {
  const f = await setup(undefined, { ...LIMITS, CAIRN_TRUST_PROXY: '127.0.0.1' });
  const user = await f.newUser('member', 'Pia Proxied');
  await setUserPassword(f.database, f.ws.workspace.id, user.id, PASSWORD);
  const via = (client: string) => ({ 'x-forwarded-for': client });

  test('the client address is the one the proxy forwards: what the lockout counts and a session records', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await f.anonymous.post(
        '/v1/auth/sign-in',
        { email: `guess${i}@acme.test`, password: 'wrong' },
        { origin: 'http://cairn.test', ...via('203.0.113.7') },
      );
      problem(res, 401, 'invalid_credentials');
    }
    const locked = await f.anonymous.post(
      '/v1/auth/sign-in',
      { email: user.email, password: PASSWORD },
      { origin: 'http://cairn.test', ...via('203.0.113.7') },
    );
    problem(locked, 429, 'rate_limited');
    const elsewhere = await signInClient(f.app, user.email, PASSWORD, via('198.51.100.9'));
    const sessions = await elsewhere.api.get('/v1/auth/sessions');
    assert.deepEqual(
      sessions.body.data.map((s: { address: string }) => s.address),
      ['198.51.100.9'],
    );
  });
});
