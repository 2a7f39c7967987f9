// The command palette (Ctrl/⌘ K), the shortcuts dialog (`?`) and the keys of lists (J, K, Enter) and of
// the app (C), in Chromium against a real Cairn (web/test/world.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { hashPassword, storePasswordHash } from '../../src/modules/auth/passwords.ts';
import { matchesWords, parseSearchPage, taskNumberOf } from '../src/lib/search-words.ts';
import { rootsOf } from '../src/live/roots.ts';
import { teamKeyOf } from '../src/screens/palette/commands.ts';
import { assertAccessible, f, journey, makeTeam, PASSWORD, screenshot, signInAs } from './world.ts';

async function makeTask(teamId: string, name: string): Promise<{ id: string; publicId: number }> {
  const res = await f.owner.post('/v1/tasks', { name, teamId });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function openPalette(page: Page) {
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.waitFor();
  return palette;
}

/** The palette's options of a group, by their text. */
async function optionsOf(page: Page, group: string): Promise<string[]> {
  const list = page.getByRole('group', { name: group });
  if ((await list.count()) === 0) return [];
  return (await list.getByRole('option').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

journey('Ctrl+K finds a task as I type, by name or by its id, and Enter opens it', async (page, context) => {
  const team = await makeTeam(f.owner, 'PAL', 'Palette');
  const report = await makeTask(team.id, 'Quarterly report draft');
  await makeTask(team.id, 'Quarterly budget');
  await makeTask(team.id, 'Unrelated chore');
  const plan = await f.owner.post('/v1/projects', { name: 'Quarterly planning', teamIds: [team.id] });
  assert.equal(plan.status, 201, JSON.stringify(plan.body));
  await signInAs(context, 'olive@acme.test');
  await page.goto('/');
  await page.getByRole('heading', { name: 'My work' }).waitFor();

  const palette = await openPalette(page);
  const input = palette.getByRole('combobox');
  assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'the field has focus');
  // Nothing typed: the person's teams and the commands.
  await palette.getByRole('option', { name: /Go to Palette/ }).waitFor();
  assert.ok((await optionsOf(page, 'Commands')).includes('Create a task'));

  await input.pressSequentially('quart rep');
  await palette
    .getByRole('status')
    .filter({ hasText: /^\d+ results?$/ })
    .waitFor();
  assert.deepEqual(await optionsOf(page, 'Tasks'), [`PAL-${report.publicId} Quarterly report draft Palette`]);
  assert.deepEqual(await optionsOf(page, 'Projects'), []);
  await input.fill('quarterly');
  await palette.getByRole('option', { name: /Quarterly budget/ }).waitFor();
  await palette.getByRole('option', { name: /Quarterly planning/ }).waitFor();
  assert.equal((await optionsOf(page, 'Tasks')).length, 2);
  await assertAccessible(page, 'palette with results');
  await screenshot(page, 'palette');

  // The task's id finds it too; the first result is the highlighted one, and Enter opens it.
  await input.fill(`PAL-${report.publicId}`);
  await palette
    .getByRole('status')
    .filter({ hasText: /^1 result$/ })
    .waitFor();
  const first = palette.getByRole('option', { name: /Quarterly report draft/ });
  assert.equal(await first.getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === `/tasks/${report.publicId}`);
  assert.equal(await palette.isVisible(), false, 'the palette closed');
});

journey("the palette's commands switch the theme and go to a team", async (page, context) => {
  await makeTeam(f.owner, 'THM', 'Themes');
  await signInAs(context, 'olive@acme.test');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.getByRole('heading', { name: 'My work' }).waitFor();

  let palette = await openPalette(page);
  await palette.getByRole('combobox').pressSequentially('switch theme');
  const toDark = palette.getByRole('option', { name: 'Switch to the dark theme' });
  await toDark.waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.equal(await palette.isVisible(), false);
  // The sidebar's choice shows what is in force, and it lasts over a reload.
  assert.equal(await page.getByLabel('Theme').inputValue(), 'dark');
  await page.reload();
  await page.getByRole('heading', { name: 'My work' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');

  palette = await openPalette(page);
  await palette.getByRole('combobox').pressSequentially('theme');
  await palette.getByRole('option', { name: 'Switch to the light theme' }).waitFor();
  await palette.getByRole('option', { name: 'Follow the system theme' }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === undefined);
  assert.equal(await page.getByLabel('Theme').inputValue(), 'system');

  // A team by name: its tasks.
  palette = await openPalette(page);
  await palette.getByRole('combobox').pressSequentially('them');
  await palette.getByRole('option', { name: /Go to Themes/ }).waitFor();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Themes tasks' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/teams/THM/tasks');
  // Esc closes it, and Ctrl+K works while typing in a field.
  await page.getByLabel('Name', { exact: true }).focus();
  palette = await openPalette(page);
  await page.keyboard.press('Escape');
  await palette.waitFor({ state: 'hidden' });
});

journey("a member never sees a private team's task in the palette", async (page, context) => {
  const open = await makeTeam(f.owner, 'OPN', 'Open door');
  const hidden = await f.owner.post('/v1/teams', { name: 'Secret lab', publicId: 'SEC', privacy: 'private' });
  assert.equal(hidden.status, 201, JSON.stringify(hidden.body));
  await makeTask(open.id, 'Secret santa draw');
  const secret = await makeTask(hidden.body.id, 'Secret merger plan');
  const member = await f.owner.post('/v1/users', {
    name: 'Mia Member',
    email: 'mia@acme.test',
    role: 'member',
  });
  assert.equal(member.status, 201, JSON.stringify(member.body));
  await storePasswordHash(f.database.db, f.ws.workspace.id, member.body.id, await hashPassword(PASSWORD));
  await signInAs(context, 'mia@acme.test');
  await page.goto('/');
  await page.getByRole('heading', { name: 'My work' }).waitFor();

  const palette = await openPalette(page);
  const input = palette.getByRole('combobox');
  await input.pressSequentially('secret');
  await palette.getByRole('option', { name: /Secret santa draw/ }).waitFor();
  await palette
    .getByRole('status')
    .filter({ hasText: /^\d+ results?$/ })
    .waitFor();
  assert.deepEqual(await optionsOf(page, 'Tasks'), [
    `OPN-${(await taskOf('Secret santa draw')).publicId} Secret santa draw Open door`,
  ]);
  assert.deepEqual(await optionsOf(page, 'Teams'), []);
  assert.equal(await palette.getByText('Secret merger plan').count(), 0);
  assert.equal(await palette.getByText('Secret lab').count(), 0);
  // Not by its number either.
  await input.fill(`SEC-${secret.publicId}`);
  await palette
    .getByRole('status')
    .filter({ hasText: /^Nothing matches/ })
    .waitFor();
  assert.equal(await palette.getByText('Secret merger plan').count(), 0);
  // The owner, who sees every team, finds it (the test above is not passing by chance).
  await context.clearCookies();
  await signInAs(context, 'olive@acme.test');
  await page.goto('/');
  await page.getByRole('heading', { name: 'My work' }).waitFor();
  const ownerPalette = await openPalette(page);
  await ownerPalette.getByRole('combobox').pressSequentially('secret');
  await ownerPalette.getByRole('option', { name: /Secret merger plan/ }).waitFor();
});

async function taskOf(name: string): Promise<{ publicId: number }> {
  const res = await f.owner.get(`/v1/tasks/search?name=${encodeURIComponent(name)}`);
  assert.equal(res.status, 200);
  return res.body.data[0];
}

journey(
  '? lists the shortcuts and Esc closes it; single keys never fire while typing',
  async (page, context) => {
    await makeTeam(f.owner, 'KEY', 'Keys');
    await signInAs(context, 'olive@acme.test');
    await page.goto('/teams/KEY/tasks');
    await page.getByRole('heading', { name: 'Keys tasks' }).waitFor();
    const asked: unknown[] = [];
    await page.exposeFunction('createTaskAsked', (detail: unknown) => asked.push(detail));
    await page.evaluate(() =>
      window.addEventListener('cairn:create-task', (event) =>
        // biome-ignore lint/suspicious/noExplicitAny: the function exposed above.
        (window as any).createTaskAsked((event as CustomEvent).detail),
      ),
    );

    // Typed into a field, `?` and `c` are text.
    const name = page.getByLabel('Name', { exact: true });
    await name.focus();
    await page.keyboard.type('?c');
    assert.equal(await name.inputValue(), '?c');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    assert.equal(await dialog.count(), 0);
    assert.deepEqual(asked, []);
    await name.fill('');
    await page.getByRole('heading', { name: 'Keys tasks' }).click();

    await page.keyboard.press('Shift+?');
    await dialog.waitFor();
    const rows = await dialog.getByRole('row').allInnerTexts();
    assert.ok(
      rows.some((row) => /Ctrl\s*\+\s*K\s+Open the command palette/.test(row)),
      rows.join('\n'),
    );
    assert.ok(
      rows.some((row) => /^C\s+Create a task$/.test(row.trim())),
      rows.join('\n'),
    );
    assert.ok(
      rows.some((row) => /^J\s+or\s+K\s+Move down or up a list$/.test(row.trim())),
      rows.join('\n'),
    );
    await assertAccessible(page, 'shortcuts dialog');
    await screenshot(page, 'shortcuts');
    // Keys of the page wait while it is open.
    await page.keyboard.press('c');
    assert.deepEqual(asked, []);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // C asks for the create-task dialog, with the team of the page.
    await page.keyboard.press('c');
    await expectSoon(() => asked.length === 1);
    assert.deepEqual(asked, [{ teamKey: 'KEY' }]);
  },
);

async function expectSoon(check: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(check());
}

journey('J and K move through a team list and Enter opens the task; My work too', async (page, context) => {
  const team = await makeTeam(f.owner, 'NAV', 'Navigation');
  const tasks: { publicId: number }[] = [];
  for (const name of ['Oldest task', 'Middle task', 'Newest task']) {
    const res = await f.owner.post('/v1/tasks', { name, teamId: team.id, assignedToId: f.ws.user.id });
    tasks.push(res.body);
  }
  await signInAs(context, 'olive@acme.test');
  await page.goto('/teams/NAV/tasks');
  await page.getByText('3 tasks').waitFor();
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');

  await page.keyboard.press('j');
  assert.match(await focused(), /Newest task/);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  assert.match(await focused(), /Oldest task/);
  await page.keyboard.press('j');
  assert.match(await focused(), /Oldest task/, 'the last row stays highlighted');
  await page.keyboard.press('k');
  assert.match(await focused(), /Middle task/);
  await assertAccessible(page, 'team tasks, a row highlighted');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === `/tasks/${tasks[1]?.publicId}`);

  await page.goto('/');
  await page.getByRole('heading', { name: 'My work' }).waitFor();
  await page.getByText('Newest task').waitFor();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  // No due dates: all in Later, most recently changed first.
  assert.match(await focused(), /Middle task/);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === `/tasks/${tasks[1]?.publicId}`);
});

journey('the search page lists the matches of every kind, its words in the URL', async (page, context) => {
  const team = await makeTeam(f.owner, 'SRC', 'Searchers');
  const task = await makeTask(team.id, 'Harbour crane inspection');
  await makeTask(team.id, 'Unrelated paperwork');
  const doc = await f.owner.post('/v1/documents', { name: 'Harbour safety rules', teamId: team.id });
  assert.equal(doc.status, 201, JSON.stringify(doc.body));
  await signInAs(context, 'olive@acme.test');
  await page.goto('/search');
  await page.getByRole('heading', { name: 'Search', exact: true }).waitFor();
  await page.getByLabel('Words the names start with').fill('harb');
  await page.waitForURL((url) => url.searchParams.get('q') === 'harb');
  const section = (name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
  await section('Tasks')
    .getByRole('link', { name: /Harbour crane inspection/ })
    .waitFor();
  await section('Documents')
    .getByRole('link', { name: /Harbour safety rules/ })
    .waitFor();
  await section('Projects').getByText('No projects match.').waitFor();
  assert.equal(await page.getByText('Unrelated paperwork').count(), 0);
  await assertAccessible(page, 'search page');
  await screenshot(page, 'search');
  // A reload keeps the search; a result opens its page.
  await page.reload();
  await section('Tasks')
    .getByRole('link', { name: /Harbour crane inspection/ })
    .click();
  await page.waitForURL((url) => url.pathname === `/tasks/${task.publicId}`);
});

// The palette's logic that is not a journey (pure functions, run in both passes).
test('a task is found by its number as people write it', () => {
  assert.equal(taskNumberOf('142'), 142);
  assert.equal(taskNumberOf(' ENG-142 '), 142);
  assert.equal(taskNumberOf('#7'), 7);
  assert.equal(taskNumberOf('eng-0042'), 42);
  assert.equal(taskNumberOf('ENG-'), undefined);
  assert.equal(taskNumberOf('release 2'), undefined);
  assert.equal(taskNumberOf('1234567890'), undefined, 'past any task number');
});

test('commands match typed words as the API does: each word starts a word, any order, no accents', () => {
  assert.equal(matchesWords('Switch to the dark theme', 'them swi'), true);
  assert.equal(matchesWords('Switch to the dark theme', 'heme'), false);
  assert.equal(matchesWords('Créer une tâche', 'tache cre'), true);
  assert.equal(matchesWords('Go to My work', ''), true);
  assert.equal(matchesWords('Go to My work', '!!'), true, 'a text without words is no text');
  assert.equal(teamKeyOf('/teams/ENG/board'), 'ENG');
  assert.equal(teamKeyOf('/'), undefined);
  assert.deepEqual(parseSearchPage({ q: '  harb  ', other: 1 }), { q: 'harb' });
  assert.deepEqual(parseSearchPage({ q: 3 }), {});
});

test('a live event makes stale the queries of its kind, and a task in a project its project', () => {
  const event = { id: 'e', entityId: 'x', teamId: 't', projectId: null };
  assert.deepEqual(rootsOf({ ...event, type: 'task.updated', entityType: 'task' }), [
    'tasks',
    'task',
    'board',
  ]);
  assert.ok(
    rootsOf({ ...event, type: 'task.created', entityType: 'task', projectId: 'p' }).includes('project'),
  );
  assert.deepEqual(rootsOf({ ...event, type: 'document.deleted', entityType: 'document' }), [
    'documents',
    'document',
  ]);
  // A task's history is under its task's key: no event refreshes every history on screen.
  assert.deepEqual(rootsOf({ ...event, type: 'something.new', entityType: 'something' }), []);
});
