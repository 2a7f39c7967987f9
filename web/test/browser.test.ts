// The web app's first journeys in a real browser (web/test/world.ts sets up Cairn and Chromium): loading,
// signing in, My work, a team's list, the narrow screen, password links and invitations.
import assert from 'node:assert/strict';
import { assertAccessible, f, journey, makeTeam, PASSWORD, screenshot, signInAs } from './world.ts';

journey(
  'the app loads at / with its CSP, its hashed assets cached for a year, and asks to sign in',
  async (page) => {
    const assets: { url: string; cacheControl: string | undefined }[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/assets/'))
        assets.push({ url: res.url(), cacheControl: res.headers()['cache-control'] });
    });
    const res = await page.goto('/');
    assert.ok(res);
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-security-policy'] ?? '', /script-src 'self'(;|$)/);
    assert.equal(res.headers()['cache-control'], 'no-cache');

    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/sign-in');
    assert.ok(
      assets.some((a) => /\/assets\/index-[\w-]+\.js$/.test(a.url)),
      JSON.stringify(assets),
    );
    for (const asset of assets)
      assert.equal(asset.cacheControl, 'public, max-age=31536000, immutable', asset.url);
    await assertAccessible(page, 'sign in');
  },
);

journey("a wrong password shows the API's detail and keeps what was typed", async (page) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('olive@acme.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.innerText(), /^The email or the password is wrong/);
  assert.equal(await page.getByLabel('Email').inputValue(), 'olive@acme.test');
  assert.equal(new URL(page.url()).pathname, '/sign-in');
  await assertAccessible(page, 'sign in, refused');
  await screenshot(page, 'sign-in-refused');
});

journey(
  'signing in lands on My work: my open tasks by due date, and back to where I was going',
  async (page) => {
    const team = await makeTeam(f.owner, 'MINE', 'Mine');
    const day = 24 * 60 * 60 * 1000;
    const due = (days: number) => new Date(Date.now() + days * day).toISOString();
    const me = f.ws.user.id;
    for (const [name, dueDate] of [
      ['Renew the certificate', due(-3)],
      ['Write the release notes', due(0)],
      ['Plan the offsite', due(60)],
    ] as const) {
      const res = await f.owner.post('/v1/tasks', { name, teamId: team.id, assignedToId: me, dueDate });
      assert.equal(res.status, 201);
    }
    const done = team.taskStatuses.find((s) => s.name === 'Done')!;
    await f.owner.post('/v1/tasks', {
      name: 'Already shipped',
      teamId: team.id,
      assignedToId: me,
      statusId: done.id,
    });
    await f.owner.post('/v1/tasks', { name: 'Someone else’s', teamId: team.id });

    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill('olive@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'My work' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');

    const group = (name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
    await group('Overdue').getByText('Renew the certificate').waitFor();
    assert.equal(await group('Today').getByText('Write the release notes').count(), 1);
    assert.equal(await group('Later').getByText('Plan the offsite').count(), 1);
    assert.equal(await page.getByText('Already shipped').count(), 0);
    assert.equal(await page.getByText('Someone else’s').count(), 0);
    // The sidebar: the workspace, and the team the owner made (its creator is a member).
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByText('Acme').first().waitFor();
    await nav.getByRole('link', { name: 'Tasks' }).first().waitFor();
    await assertAccessible(page, 'my work');
    await screenshot(page, 'my-work');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'my-work-dark');
    await page.emulateMedia({ colorScheme: null });

    // Signed out, a bookmarked view asks to sign in and then opens that view.
    await nav.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto('/teams/MINE/tasks');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill('olive@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Mine tasks' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/teams/MINE/tasks');
  },
);

journey(
  'a team list shows the tasks made through the API, virtualized, with its filters in the URL',
  async (page, context) => {
    const team = await makeTeam(f.owner, 'ENG', 'Engineering');
    const todo = team.taskStatuses.find((s) => s.name === 'Todo')!;
    const started = team.taskStatuses.find((s) => s.name === 'In Progress')!;
    const tasks = Array.from({ length: 150 }, (_, i) => ({
      name: i % 10 === 0 ? `Login page ${i}` : `Routine chore ${i}`,
      teamId: team.id,
      statusId: i % 3 === 0 ? started.id : todo.id,
    }));
    for (let i = 0; i < tasks.length; i += 100) {
      const res = await f.owner.post('/v1/tasks/batch', { tasks: tasks.slice(i, i + 100) });
      assert.equal(res.status, 200);
      assert.equal(res.body.failed.length, 0);
    }
    await signInAs(context, 'olive@acme.test');

    await page.goto('/teams/ENG/tasks');
    await page.getByRole('heading', { name: 'Engineering tasks' }).waitFor();
    await page.getByText('150 tasks').waitFor();
    const list = page.getByRole('region', { name: 'Engineering tasks' });
    await list.getByText('Routine chore 149').waitFor();
    // Only the rows in view (and a few beyond) are in the page.
    const rendered = await list.getByRole('listitem').count();
    assert.ok(rendered > 5 && rendered < 60, `${rendered} rows rendered of 150`);
    await assertAccessible(page, 'team tasks');
    await screenshot(page, 'team-tasks');

    // Scrolling to the end loads the second page and shows the oldest task.
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await list.getByText('Routine chore 1', { exact: true }).waitFor();

    // A name filter goes into the URL, shows as a chip, and narrows the list.
    await page.getByLabel('Name', { exact: true }).fill('login');
    await page.waitForURL((url) => url.searchParams.get('q') === 'login');
    await page.getByText('15 tasks').waitFor();
    await page.getByRole('button', { name: 'Remove the filter Name: login' }).waitFor();

    // A status filter too; a reload keeps both.
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'In Progress' });
    await page.waitForURL((url) => url.searchParams.get('status') === started.id);
    await page.getByText('5 tasks').waitFor();
    await page.reload();
    await page.getByText('5 tasks').waitFor();
    assert.equal(await page.getByLabel('Status', { exact: true }).inputValue(), started.id);
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'login');
    await assertAccessible(page, 'team tasks, filtered');
    await screenshot(page, 'team-tasks-filtered');

    // Removing the chip removes the filter from the URL.
    await page.getByRole('button', { name: 'Remove the filter Name: login' }).click();
    await page.waitForURL((url) => !url.searchParams.has('q'));
    await page.getByText('50 tasks').waitFor();
  },
);

journey(
  'at 375 px the sidebar is a panel behind the menu button, and nothing overflows',
  async (page, context) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAs(context, 'olive@acme.test');
    await page.goto('/');
    await page.getByRole('heading', { name: 'My work' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    assert.equal(await nav.isVisible(), false);
    const toggle = page.getByRole('button', { name: 'Show the sidebar' });
    await toggle.click();
    await nav.getByRole('link', { name: 'My work' }).waitFor();
    await assertAccessible(page, 'my work at 375 px, sidebar open');
    await screenshot(page, 'narrow-sidebar');
    await nav.getByRole('link', { name: 'Tasks' }).first().click();
    await page.getByRole('heading', { name: /tasks$/ }).waitFor();
    assert.equal(await nav.isVisible(), false, 'choosing a place closes the panel');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page is ${width} px wide`);
    await assertAccessible(page, 'team tasks at 375 px');
    await screenshot(page, 'narrow-team-tasks');
  },
);

journey('a password link and an invitation set the password and sign the person in', async (page) => {
  const member = await f.owner.post('/v1/users', {
    name: 'Rita Reset',
    email: 'rita@acme.test',
    role: 'member',
  });
  assert.equal(member.status, 201);
  const link = await f.owner.post(`/v1/users/${member.body.id}/password-reset`);
  assert.equal(link.status, 201, JSON.stringify(link.body));
  await page.goto(new URL(link.body.url).pathname);
  await page.getByRole('heading', { name: 'Set your password' }).waitFor();
  await assertAccessible(page, 'set password');
  await page.getByLabel('New password').fill('password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('alert').waitFor();
  await page.getByLabel('New password').fill('a-fresh-river-stone-7');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByText('Your password is set').waitFor();

  const invitation = await f.owner.post('/v1/invitations', { email: 'ivan@acme.test', role: 'member' });
  assert.equal(invitation.status, 201, JSON.stringify(invitation.body));
  await page.goto(new URL(invitation.body.url).pathname);
  await page.getByRole('heading', { name: 'Join your team on Cairn' }).waitFor();
  await assertAccessible(page, 'accept invitation');
  await page.getByLabel('Your name').fill('Ivan Invited');
  await page.getByLabel('Password').fill('a-fresh-river-stone-8');
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.getByRole('heading', { name: 'My work' }).waitFor();
  await page.getByText('Ivan Invited').waitFor();
  await page.getByText('Nothing is assigned to you.').waitFor();
  await assertAccessible(page, 'my work, empty');
});
