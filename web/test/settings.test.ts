// Settings in a real browser (web/test/world.ts): the person's profile, password, sessions and API
// tokens; the owners' members, invitations, teams and webhooks; a member never shown the owners' part;
// axe on every screen (light and dark) and the narrow screen.
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { hashPassword, storePasswordHash } from '../../src/modules/auth/passwords.ts';
import { startWorker } from '../../src/modules/webhooks/worker.ts';
import { client } from '../../src/test/helpers.ts';
import { startReceiver } from '../../src/test/receiver.ts';
import { assertAccessible, f, journey, PASSWORD, screenshot, signInAs } from './world.ts';

let people = 0;
/** A person of the workspace with a password (as the setup link would set it). */
async function makePerson(name: string, role: 'member' | 'admin' | 'owner' = 'member') {
  people += 1;
  const email = `person${people}@acme.test`;
  const res = await f.owner.post('/v1/users', { name, email, role });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await storePasswordHash(f.database.db, f.ws.workspace.id, res.body.id, await hashPassword(PASSWORD));
  return { id: res.body.id as string, email };
}

async function openSettings(page: Page, path: string, heading: string) {
  await page.goto(path);
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

async function isSignedIn(context: BrowserContext): Promise<boolean> {
  const res = await context.request.get('/v1/me');
  return res.status() === 200;
}

journey('changing my name shows it at once, in the sidebar too', async (page, context) => {
  const me = await makePerson('Nora Name');
  await signInAs(context, me.email);
  await page.goto('/settings');
  await page.waitForURL((url) => url.pathname === '/settings/profile');
  await page.getByRole('heading', { name: 'Profile', level: 2 }).waitFor();
  assert.equal(await page.getByLabel('Name').inputValue(), 'Nora Name');
  await assertAccessible(page, 'settings, profile');
  await screenshot(page, 'settings-profile');

  await page.getByLabel('Name').fill('Nora Renamed');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByText('Nora Renamed').waitFor();
  const stored = await f.owner.get(`/v1/users/${me.id}`);
  assert.equal(stored.body.name, 'Nora Renamed');

  // An empty name is the API's to refuse: its words show, and what was typed stays.
  await page.getByLabel('Name').fill('   ');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('alert').waitFor();
  assert.equal(await page.getByLabel('Name').inputValue(), '   ');
});

journey('changing my password ends my other session, and this one stays', async (page, context) => {
  const me = await makePerson('Pia Password');
  await signInAs(context, me.email);
  // A second browser signed in as the same person.
  const second = await context.browser()!.newContext({ baseURL: await baseOf(page) });
  try {
    await signInAs(second, me.email);
    assert.equal(await isSignedIn(second), true);

    await openSettings(page, '/settings/password', 'Password');
    await page.getByText('Changing your password signs you out everywhere else').waitFor();
    await assertAccessible(page, 'settings, password');
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password').fill('a-brand-new-granite-9');
    await page.getByRole('button', { name: 'Change password' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await page.getByLabel('New password').inputValue(), 'a-brand-new-granite-9');
    assert.equal(await isSignedIn(second), true, 'a refused change ends nothing');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed. Every other session has ended.').waitFor();
    assert.equal(await page.getByLabel('Current password').inputValue(), '');
    assert.equal(await isSignedIn(second), false, 'the other browser is signed out');
    assert.equal(await isSignedIn(context), true, 'this browser stays signed in');
    await signInAs(second, me.email, 'a-brand-new-granite-9');
  } finally {
    await second.close();
  }
});

journey('sessions: this browser is marked, and ending another signs it out', async (page, context) => {
  const me = await makePerson('Sam Sessions');
  await signInAs(context, me.email);
  const second = await context.browser()!.newContext({ baseURL: await baseOf(page) });
  try {
    await signInAs(second, me.email);
    await openSettings(page, '/settings/sessions', 'Sessions');
    const list = page.getByRole('list', { name: 'Sessions' });
    await list.getByRole('listitem').nth(1).waitFor();
    assert.equal(await list.getByRole('listitem').count(), 2);
    const current = list.getByRole('listitem').filter({ hasText: 'This browser' });
    assert.equal(await current.count(), 1);
    assert.equal(await current.getByRole('button').count(), 0, 'this browser ends by signing out');
    await assertAccessible(page, 'settings, sessions');
    await screenshot(page, 'settings-sessions');

    const otherRow = list.getByRole('listitem').filter({ hasNotText: 'This browser' });
    await otherRow.getByRole('button', { name: 'End session' }).click();
    await otherRow.getByRole('button', { name: 'End it' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Sessions"] > li').length === 1);
    assert.equal(await isSignedIn(second), false);
    assert.equal(await isSignedIn(context), true);
  } finally {
    await second.close();
  }
});

journey('an API token is shown once, kept in no storage, works, and is revoked', async (page, context) => {
  const me = await makePerson('Tom Tokens');
  await signInAs(context, me.email);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSettings(page, '/settings/tokens', 'API tokens');
  await page.getByText('You have no API token.').waitFor();
  await page.getByLabel('Token name').fill('CI deploys');
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('region', { name: 'Token “CI deploys”' });
  await shown.waitFor();
  const token = await shown.getByRole('textbox').inputValue();
  assert.match(token, /^cairn_[\w-]{43}$/);
  await shown.getByRole('button', { name: 'Copy' }).click();
  await shown.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
  await assertAccessible(page, 'settings, token shown once');
  await screenshot(page, 'settings-token');

  const storage = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  assert.ok(!storage.includes(token), 'the token is in the browser’s storage');
  const asToken = client(f.app, token);
  assert.equal((await asToken.get('/v1/me')).body.email, me.email);

  await shown.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.getByText(token).count(), 0);
  const row = page.getByRole('listitem', { name: 'CI deploys' });
  await row.waitFor();
  await page.reload();
  await row.waitFor();
  assert.equal(await page.locator(`input[value="${token}"]`).count(), 0, 'shown once, not after a reload');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Revoke it' }).click();
  await page.getByText('You have no API token.').waitFor();
  assert.equal((await asToken.get('/v1/me')).status, 401);
});

journey(
  'an owner invites someone, sees it listed, changes a role; the narrow screen fits',
  async (page, context) => {
    const member = await makePerson('Rob Role');
    await signInAs(context, 'olive@acme.test');
    await openSettings(page, '/settings/invitations', 'Invitations');
    await page.getByText('No invitation is open.').waitFor();
    await page.getByLabel('Email').fill('ines@acme.test');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = page.getByRole('region', { name: 'Invitation link for ines@acme.test' });
    await link.waitFor();
    assert.match(await link.getByRole('textbox').inputValue(), /\/invite\/[\w-]+$/);
    await link.getByText('pass the link on yourself').waitFor();
    const row = page
      .getByRole('list', { name: 'Open invitations' })
      .getByRole('listitem', { name: 'ines@acme.test' });
    await row.waitFor();
    assert.match(await row.innerText(), /admin · invited/);
    await assertAccessible(page, 'settings, invitations');
    await screenshot(page, 'settings-invitations');
    await link.getByRole('button', { name: 'Done' }).click();

    // Inviting an email that is a member's: the API's words, and the email kept.
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('alert').filter({ hasText: 'is already a member of this workspace' }).waitFor();
    assert.equal(await page.getByLabel('Email').inputValue(), member.email);

    await openSettings(page, '/settings/members', 'Members');
    const role = page.getByLabel('Role of Rob Role');
    assert.equal(await role.inputValue(), 'member');
    await assertAccessible(page, 'settings, members');
    await role.selectOption('admin');
    await page.waitForFunction(
      async (id) => (await (await fetch(`/v1/users/${id}`)).json()).role === 'admin',
      member.id,
    );
    // The last owner cannot be demoted: the API says why, and the role shown stays the stored one.
    await page.getByLabel('Role of Olive Owner').selectOption('member');
    await page.getByRole('alert').filter({ hasText: 'last owner cannot stop being an owner' }).waitFor();
    assert.equal(await page.getByLabel('Role of Olive Owner').inputValue(), 'owner');

    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of [
      '/settings/members',
      '/settings/invitations',
      '/settings/tokens',
      '/settings/sessions',
    ]) {
      await page.goto(path);
      await page.getByRole('navigation', { name: 'Settings' }).waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 375, `${path} is ${width} px wide`);
    }
    await assertAccessible(page, 'settings at 375 px');
    await screenshot(page, 'settings-narrow');
  },
);

journey('a member is not shown the owners’ settings', async (page, context) => {
  const member = await makePerson('Mia Member');
  await signInAs(context, member.email);
  await openSettings(page, '/settings/profile', 'Profile');
  const nav = page.getByRole('navigation', { name: 'Settings' });
  for (const text of ['Profile', 'Password', 'Sessions', 'API tokens'])
    assert.equal(await nav.getByRole('link', { name: text }).count(), 1, text);
  for (const text of ['Members', 'Invitations', 'Teams and areas', 'Webhooks'])
    assert.equal(await nav.getByRole('link', { name: text }).count(), 0, text);
  await page.goto('/settings/invitations');
  await page.getByText('Only the workspace’s owners manage this.').waitFor();
  assert.equal(await page.getByLabel('Email').count(), 0);
  await assertAccessible(page, 'settings, owners only');
});

journey('an owner creates a team and gives it a status and a label', async (page, context) => {
  await signInAs(context, 'olive@acme.test');
  await openSettings(page, '/settings/teams', 'Teams and areas');
  await assertAccessible(page, 'settings, teams');
  await page.getByLabel('Name', { exact: true }).fill('Design');
  await page.getByLabel('Code', { exact: true }).fill('DES');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL((url) => url.pathname === '/settings/teams/DES');
  await page.getByRole('heading', { name: 'Team Design' }).waitFor();

  const statuses = page.getByRole('form', { name: 'Statuses' });
  const before = await statuses.getByRole('listitem').count();
  await statuses.getByRole('button', { name: 'Add a status' }).click();
  await statuses.getByLabel(`Status ${before + 1} name`).fill('In review');
  await statuses.getByLabel(`Status ${before + 1} stage`).selectOption('started');
  await statuses.getByRole('button', { name: 'Save statuses' }).click();
  await statuses.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

  const labels = page.getByRole('form', { name: 'Labels' });
  await labels.getByRole('button', { name: 'Add a label' }).click();
  await labels.getByLabel('Label 1 name').fill('Bug');
  await labels.getByRole('button', { name: 'Save labels' }).click();
  await labels.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await assertAccessible(page, 'settings, team editor');
  await screenshot(page, 'settings-team');

  const team = await f.owner.get('/v1/teams/DES?expand=all');
  assert.equal(team.status, 200);
  const added = team.body.taskStatuses.at(-1);
  assert.deepEqual([added.name, added.stage], ['In review', 'started']);
  assert.deepEqual(
    team.body.taskLabels.map((l: { name: string }) => l.name),
    ['Bug'],
  );
  // The list of teams shows it, with a link back to its editor.
  await page.getByRole('link', { name: 'Teams and areas' }).first().click();
  await page.getByRole('link', { name: 'DES Design' }).waitFor();
});

journey('a webhook subscription: secret once, its delivery log, and a retry', async (page, context) => {
  const receiver = await startReceiver();
  const worker = startWorker({
    database: f.database,
    publicUrl: await baseOf(page),
    allowPrivate: true,
    retentionDays: 7,
    concurrency: 2,
    log: { info() {}, warn() {}, error: (o: unknown, m?: string) => console.error(m, o) },
    pollMs: 50,
  });
  try {
    // The first delivery fails; every later one gets through.
    receiver.answer('/hooks/settings', (_r, nth) => ({ status: nth === 1 ? 500 : 204 }));
    await signInAs(context, 'olive@acme.test');
    await openSettings(page, '/settings/webhooks', 'Webhooks');
    await page.getByText('No subscription yet.').waitFor();
    await page.getByLabel('URL').fill(`${receiver.base}/hooks/settings`);
    await page.getByLabel('Events').selectOption('task.*');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const secret = page.getByRole('region', { name: 'Signing secret of the new subscription' });
    await secret.waitFor();
    assert.match(await secret.getByRole('textbox').inputValue(), /^whsec_/);
    await assertAccessible(page, 'settings, webhooks, secret shown');
    await secret.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: `${receiver.base}/hooks/settings` }).click();
    await page.getByRole('heading', { name: 'Webhook subscription' }).waitFor();
    await page.getByText('Nothing was sent yet.').waitFor();

    const team = await f.owner.post('/v1/teams', { name: 'Hooks', publicId: 'HOOK' });
    await f.owner.post('/v1/tasks', { name: 'Send me out', teamId: team.body.id });
    const log = page.getByRole('list', { name: 'Deliveries' });
    const failed = log.getByRole('listitem', { name: 'task.created, attempt 1, HTTP 500' });
    await failed.waitFor();
    assert.match(await failed.innerText(), /Failed/);
    await assertAccessible(page, 'settings, webhook delivery log');
    await screenshot(page, 'settings-webhook');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('The retry is queued').waitFor();
    await log.getByRole('listitem', { name: /^task\.created, attempt \d+, HTTP 204, retry$/ }).waitFor();

    await page.getByRole('button', { name: 'Delete subscription' }).click();
    await page.getByRole('button', { name: 'Delete it' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/webhooks');
    await page.getByText('No subscription yet.').waitFor();
  } finally {
    await worker.stop();
    await receiver.close();
  }
});

async function baseOf(page: Page): Promise<string> {
  if (page.url().startsWith('http')) return new URL(page.url()).origin;
  await page.goto('/sign-in');
  return new URL(page.url()).origin;
}
