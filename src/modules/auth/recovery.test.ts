// Password links and mails through HTTP, with a local SMTP server (test/smtp.ts) that the mails are read
// back from: the invitation mail, the reset flow (request → mail → new password → every session gone,
// the link refused the second time, a newer link retiring older ones, an hour's expiry), an unknown
// email answered alike, an owner's link for a person, and the rate limits of reset requests.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { advanceClock } from '../../clock.ts';
import { ISO_PATTERN, problem, setup } from '../../test/helpers.ts';
import { linkIn, startSmtp } from '../../test/smtp.ts';
import { startSession } from './sessions.ts';

const smtp = await startSmtp();
const f = await setup(undefined, { CAIRN_SMTP_URL: smtp.url });
after(() => smtp.close());

const HOUR_MS = 60 * 60 * 1000;
const RESET_PAGE = 'http://cairn.test/reset-password/';
const tokenOf = (url: string) => url.split('/').pop()!;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ACCEPTED = {
  message:
    'If this email belongs to someone here, a link to set a new password is on its way; it works for an hour',
};

/** Someone who joined through an invitation: a password and a session. */
async function person(email: string, password = 'the first long passphrase') {
  const inv = await f.owner.post('/v1/invitations', { email, role: 'member' });
  assert.equal(inv.status, 201, JSON.stringify(inv.body));
  const res = await f.anonymous.post('/v1/auth/accept-invitation', {
    token: tokenOf(inv.body.url),
    name: email.split('@')[0],
    password,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await f.app.mailer.idle();
  smtp.take(email);
  return res.body.user as { id: string; email: string };
}

async function passwordHashOf(userId: string) {
  const row = await f.database.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

async function sessionCount(userId: string) {
  return (await f.database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute())
    .length;
}

/** Asks for a reset link and reads the one mail it sends to `email`. */
async function askForLink(email: string): Promise<string> {
  const res = await f.anonymous.post('/v1/auth/password-reset', { email });
  assert.equal(res.status, 202);
  await f.app.mailer.idle();
  const mails = smtp.take(email.toLowerCase());
  assert.equal(mails.length, 1, JSON.stringify(mails));
  return tokenOf(linkIn(mails[0]!, RESET_PAGE));
}

const reset = (token: string, password: string) =>
  f.anonymous.post('/v1/auth/reset-password', { token, password });

describe('mails', () => {
  test('an invitation is mailed to the person, with the link of the answer', async () => {
    const res = await f.owner.post('/v1/invitations', { email: 'ivy@acme.test', role: 'admin' });
    assert.equal(res.status, 201);
    assert.equal(res.body.emailed, true);
    await f.app.mailer.idle();
    const mails = smtp.take('ivy@acme.test');
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.deepEqual(mail.to, ['ivy@acme.test']);
    assert.equal(mail.from, 'no-reply@cairn.test');
    assert.equal(mail.subject, 'Olive Owner invited you to Acme on Cairn');
    assert.match(mail.text, /join the workspace "Acme" on Cairn, as admin/);
    assert.equal(linkIn(mail, 'http://cairn.test/invite/'), res.body.url);
  });
});

describe('the reset flow', () => {
  test('ask → mail → new password: every session ends, and the link works once', async () => {
    const user = await person('rex@acme.test');
    await startSession(f.database.db, {
      workspaceId: f.ws.workspace.id,
      userId: user.id,
      userAgent: 'Another browser',
      address: '192.0.2.1',
    });
    assert.equal(await sessionCount(user.id), 2);
    const before = await passwordHashOf(user.id);

    const res = await f.anonymous.post('/v1/auth/password-reset', { email: 'REX@acme.test' });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, ACCEPTED);
    await f.app.mailer.idle();
    const [mail, ...more] = smtp.take('rex@acme.test');
    assert.deepEqual(more, []);
    assert.equal(mail!.subject, 'Set a new password for Acme on Cairn');
    assert.match(mail!.text, /Someone asked to set a new password for rex@acme.test in the workspace "Acme"/);
    const token = tokenOf(linkIn(mail!, RESET_PAGE));
    // The link's token is stored only as its hash, and only once.
    const rows = await f.database.db
      .selectFrom('password_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.token_hash, r.purpose, r.created_by_id, r.used_at]),
      [[sha256(token), 'reset', null, null]],
    );
    assert.equal(Date.parse(rows[0]!.expires_at) - Date.parse(rows[0]!.created_at), HOUR_MS);

    // A refused password leaves the link usable.
    const weak = problem(await reset(token, 'abc'), 400, 'validation_failed');
    assert.deepEqual(weak.errors, [{ path: '/body/password', message: 'must be at least 8 characters' }]);

    const done = await reset(token, 'a brand new passphrase');
    assert.equal(done.status, 204);
    assert.equal(done.body, '');
    assert.equal(await sessionCount(user.id), 0);
    const after = await passwordHashOf(user.id);
    assert.match(String(after), /^\$argon2id\$/);
    assert.notEqual(after, before);

    const again = problem(await reset(token, 'yet another passphrase'), 400, 'invalid_token');
    assert.equal(again.detail, 'This password link was already used, or a newer one was; ask for a new link');
    assert.equal(await passwordHashOf(user.id), after);
  });

  test('using a newer link retires the older unused ones', async () => {
    const user = await person('nell@acme.test');
    const older = await askForLink('nell@acme.test');
    const newer = await askForLink('nell@acme.test');
    assert.notEqual(older, newer);
    assert.equal((await reset(newer, 'the newer passphrase')).status, 204);
    problem(await reset(older, 'the older passphrase'), 400, 'invalid_token');
    const unused = await f.database.db
      .selectFrom('password_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .execute();
    assert.deepEqual(unused, []);
  });

  test('one link used by several at the same moment: one 204, the others refused', async () => {
    const user = await person('pia@acme.test');
    const token = await askForLink('pia@acme.test');
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => reset(token, `racing passphrase number ${i}`)),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [204, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400)) problem(a, 400, 'invalid_token');
    assert.match(String(await passwordHashOf(user.id)), /^\$argon2id\$/);
  });

  test('an unknown email gets the same answer, and nothing is sent or stored', async () => {
    const tokens = async () =>
      (await f.database.db.selectFrom('password_tokens').select('id').execute()).length;
    const before = await tokens();
    const res = await f.anonymous.post('/v1/auth/password-reset', { email: 'nobody@acme.test' });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, ACCEPTED);
    // A known email's answer: the same status, body and headers (but for those of each request).
    await person('known@acme.test');
    const known = await f.anonymous.post('/v1/auth/password-reset', { email: 'known@acme.test' });
    const shape = (r: typeof res) => {
      const own = ['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset'];
      const headers = Object.entries(r.headers).filter(([h]) => !own.includes(h));
      return { status: r.status, body: r.body, headers: Object.fromEntries(headers) };
    };
    assert.deepEqual(shape(res), shape(known));
    await f.app.mailer.idle();
    assert.deepEqual(smtp.take('nobody@acme.test'), []);
    assert.equal(smtp.take('known@acme.test').length, 1);
    assert.equal(await tokens(), before + 1);
  });

  test('an email in two workspaces: a mail from each, or from the one named', async () => {
    await person('dual@acme.test');
    const other = await f.newWorkspace('Second');
    assert.equal(
      (await other.owner.post('/v1/users', { name: 'Dual', email: 'dual@acme.test' })).status,
      201,
    );
    assert.equal(
      (await f.anonymous.post('/v1/auth/password-reset', { email: 'dual@acme.test' })).status,
      202,
    );
    await f.app.mailer.idle();
    const subjects = smtp
      .take('dual@acme.test')
      .map((m) => m.subject)
      .sort();
    assert.deepEqual(subjects, [
      'Set a new password for Acme on Cairn',
      'Set a new password for Second on Cairn',
    ]);
    const named = await f.anonymous.post('/v1/auth/password-reset', {
      email: 'dual@acme.test',
      workspaceId: other.ws.workspace.id,
    });
    assert.deepEqual([named.status, named.body], [202, ACCEPTED]);
    await f.app.mailer.idle();
    assert.deepEqual(
      smtp.take('dual@acme.test').map((m) => m.subject),
      ['Set a new password for Second on Cairn'],
    );
  });

  test('a malformed or unknown token is 400 invalid_token; a bad email is 400', async () => {
    const unknown = problem(await reset('x'.repeat(43), 'a fine passphrase'), 400, 'invalid_token');
    assert.equal(unknown.detail, 'This password link is not valid; check that it was copied whole');
    problem(
      await f.anonymous.post('/v1/auth/password-reset', { email: 'not an email' }),
      400,
      'validation_failed',
    );
    problem(await f.anonymous.post('/v1/auth/password-reset', {}), 400, 'validation_failed');
  });
});

describe('POST /v1/users/{id}/password-reset', () => {
  test("an owner makes a person's link: in the answer, and mailed to them", async () => {
    const user = await person('owen@acme.test');
    const res = await f.owner.post(`/v1/users/${user.id}/password-reset`);
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body).sort(), ['emailed', 'expiresAt', 'url']);
    assert.equal(res.body.emailed, true);
    assert.match(res.body.expiresAt, ISO_PATTERN);
    assert.match(res.body.url, /^http:\/\/cairn\.test\/reset-password\/[A-Za-z0-9_-]{43}$/);
    const row = await f.database.db
      .selectFrom('password_tokens')
      .selectAll()
      .where('token_hash', '=', sha256(tokenOf(res.body.url)))
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.user_id, row.created_by_id, row.purpose], [user.id, f.ws.user.id, 'reset']);
    assert.equal(Date.parse(res.body.expiresAt) - Date.parse(row.created_at), HOUR_MS);
    await f.app.mailer.idle();
    const [mail] = smtp.take('owen@acme.test');
    assert.match(mail!.text, /Olive Owner, an owner of the workspace "Acme" on Cairn, made a link for you/);
    assert.equal(linkIn(mail!, RESET_PAGE), res.body.url);
    assert.equal((await reset(tokenOf(res.body.url), 'chosen by owen himself')).status, 204);
  });

  test('only owners (403); a missing person or another workspace’s is 404', async () => {
    const target = await f.newUser('member');
    for (const role of ['admin', 'member', 'guest'] as const) {
      const who = await f.newUser(role);
      problem(await who.api.post(`/v1/users/${target.id}/password-reset`), 403, 'forbidden');
    }
    const missing = problem(
      await f.owner.post('/v1/users/00000000-0000-4000-8000-000000000002/password-reset'),
      404,
      'not_found',
    );
    const other = await f.newWorkspace('Third');
    const foreign = problem(
      await f.owner.post(`/v1/users/${other.ws.user.id}/password-reset`),
      404,
      'not_found',
    );
    assert.deepEqual({ ...foreign, requestId: '' }, { ...missing, requestId: '' });
    problem(await f.anonymous.post(`/v1/users/${target.id}/password-reset`), 401, 'unauthenticated');
  });
});

describe('rate limits of reset requests', () => {
  const ask = (address: string, email: string) =>
    f.app.inject({
      method: 'POST',
      url: '/v1/auth/password-reset',
      payload: { email },
      remoteAddress: address,
    });

  test('5 an hour per email, whoever asks; then 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++)
      assert.equal((await ask(`198.51.100.${i}`, 'Limited@acme.test')).statusCode, 202);
    const over = await ask('198.51.100.9', 'limited@acme.test');
    assert.equal(over.statusCode, 429);
    const body = JSON.parse(over.body);
    assert.equal(body.code, 'rate_limited');
    assert.match(
      body.detail,
      /^Too many password reset requests for this email in an hour; retry in \d+ seconds$/,
    );
    const retry = Number(over.headers['retry-after']);
    assert.ok(retry > 3500 && retry <= 3600, String(retry));
    // Another email from the same address is not held back.
    assert.equal((await ask('198.51.100.9', 'someone-else@acme.test')).statusCode, 202);
  });

  test('20 an hour per address, whatever the emails; then 429', async () => {
    for (let i = 0; i < 20; i++)
      assert.equal((await ask('203.0.113.7', `walk${i}@acme.test`)).statusCode, 202);
    const over = await ask('203.0.113.7', 'walk-more@acme.test');
    assert.equal(over.statusCode, 429);
    assert.match(JSON.parse(over.body).detail, /from this address/);
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.equal((await ask('203.0.113.8', 'walk-more@acme.test')).statusCode, 202);
    await f.app.mailer.idle();
  });
});

// Last: the clock moves forward for the rest of the file.
test('a reset link has expired after an hour', async () => {
  await person('late@acme.test');
  const token = await askForLink('late@acme.test');
  advanceClock(HOUR_MS + 1);
  const res = problem(await reset(token, 'too late a passphrase'), 400, 'invalid_token');
  assert.equal(res.detail, 'This password link has expired; ask for a new one');
});
