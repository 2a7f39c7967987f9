// A person's whole way in and out, across the sign-in and the invitation and password-link routes
// (docs/api.md "Sessions", "Invitations and password links"): the cookie an accepted invitation sets
// authenticates like a token, holds to the origin rule, and ends when a password link is used; then the
// new password signs in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientWith, sessionCookieOf, setup, signInClient } from '../../test/helpers.ts';

const f = await setup();
const origin = 'http://cairn.test';

test('invited, accepted, signed in by the cookie; a password link ends that session', async () => {
  const invited = await f.owner.post('/v1/invitations', { email: 'nia@acme.test', role: 'admin' });
  assert.equal(invited.status, 201);
  const token = new URL(invited.body.url).pathname.split('/').at(-1)!;
  const accepted = await f.anonymous.post(
    '/v1/auth/accept-invitation',
    { token, name: 'Nia New', password: 'a long and unusual passphrase' },
    { origin },
  );
  assert.equal(accepted.status, 200);
  const cookie = sessionCookieOf(accepted)!;
  assert.ok(cookie);
  const asNia = clientWith(f.app, { cookie: `cairn_session=${cookie}`, origin });

  const me = await asNia.get('/v1/me');
  assert.equal(me.status, 200);
  assert.deepEqual([me.body.email, me.body.role], ['nia@acme.test', 'admin']);
  const team = await asNia.post('/v1/teams', { name: 'Nia’s team' });
  assert.equal(team.status, 201);
  const elsewhere = await clientWith(f.app, {
    cookie: `cairn_session=${cookie}`,
    origin: 'https://evil.example',
  }).post('/v1/teams', { name: 'Not from here' });
  assert.equal(elsewhere.status, 403);
  assert.equal(elsewhere.body.code, 'forbidden');

  const link = await f.owner.post(`/v1/users/${me.body.id}/password-reset`);
  assert.equal(link.status, 201);
  const reset = await f.anonymous.post(
    '/v1/auth/reset-password',
    { token: new URL(link.body.url).pathname.split('/').at(-1)!, password: 'another long passphrase here' },
    { origin },
  );
  assert.equal(reset.status, 204);
  const ended = await asNia.get('/v1/me');
  assert.equal(ended.status, 401);
  assert.equal(ended.body.code, 'unauthenticated');

  const again = await signInClient(f.app, 'nia@acme.test', 'another long passphrase here');
  assert.equal((await again.api.get('/v1/me')).body.id, me.body.id);
});
