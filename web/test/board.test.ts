// A team's board in a real browser (web/test/world.ts): cards in their status columns, a move by drag
// and drop and one by keyboard alone, each saved (checked through the API) and kept over a reload; a
// 412 (the task changed through the API meanwhile) showing the newer version and retried; the list's
// filters in the URL applying to the board and the list alike; axe; the board at 375 px.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible, f, journey, makeTeam, screenshot, signInAs } from './world.ts';

const OWNER = 'olive@acme.test';

interface ApiTask {
  id: string;
  publicId: number;
  name: string;
  statusId: string;
  priority: boolean;
  updatedAt: string;
}

async function makeTask(body: Record<string, unknown>): Promise<ApiTask> {
  const res = await f.owner.post('/v1/tasks', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as ApiTask;
}

/** The task through the API, once `check` holds (a save is on its way), within 5 s. */
async function eventually(id: string, check: (task: ApiTask) => boolean): Promise<ApiTask> {
  const deadline = Date.now() + 5_000;
  let task = (await f.owner.get(`/v1/tasks/${id}`)).body as ApiTask;
  while (!check(task) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    task = (await f.owner.get(`/v1/tasks/${id}`)).body as ApiTask;
  }
  assert.ok(check(task), JSON.stringify(task));
  return task;
}

/** A column by its status name; its accessible name is the name and its count (`Todo 2`). */
const column = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name} \\d+$`) });
const card = (where: Page | Locator, name: string) => where.getByRole('button', { name: new RegExp(name) });

async function columnNames(page: Page, name: string): Promise<string[]> {
  return column(page, name).locator('.card-name').allInnerTexts();
}

/** dnd-kit's live region: what a screen reader hears as a card moves. */
const announced = (page: Page, text: string) =>
  page.locator('[id^="DndLiveRegion"]').filter({ hasText: text }).waitFor({ state: 'attached' });

/**
 * The card is picked up, and dnd-kit listens for the arrows. Its keyboard sensor, made in the Space
 * key's handler, starts listening in a `setTimeout` of no delay; one queued in the page after that
 * (once the card shows it is picked up) runs after it, timers of one delay running in order. A fixed
 * wait instead was a guess a busy machine could outlast.
 */
async function pickedUp(page: Page): Promise<void> {
  await page.locator('.card[aria-pressed="true"]').waitFor();
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

/** Picks the card up with Space, moves it right through `columns` (one arrow each), drops it with Space. */
async function moveByKeyboard(page: Page, target: Locator, columns: string[]): Promise<void> {
  await target.focus();
  await page.keyboard.press('Space');
  await pickedUp(page);
  for (const status of columns) {
    await page.keyboard.press('ArrowRight');
    await announced(page, `is over ${status}.`);
  }
  await page.keyboard.press('Space');
  await announced(page, `was dropped in ${columns.at(-1)}.`);
}

async function boardTeam(code: string, name: string) {
  const team = await makeTeam(f.owner, code, name);
  const status = (n: string) => team.taskStatuses.find((s) => s.name === n)!;
  return { team, status };
}

journey(
  'a board shows the tasks in their status columns; a card dragged to another is saved and kept',
  async (page, context) => {
    const { team, status } = await boardTeam('BRD', 'Platform');
    const spec = await makeTask({ name: 'Write the spec', teamId: team.id, statusId: status('Todo').id });
    await makeTask({ name: 'Order the servers', teamId: team.id, statusId: status('Todo').id });
    await makeTask({ name: 'Fix the login', teamId: team.id, statusId: status('In Progress').id });
    await makeTask({ name: 'Ship v1', teamId: team.id, statusId: status('Done').id, priority: true });
    await signInAs(context, OWNER);

    await page.goto('/teams/BRD/board');
    await page.getByRole('heading', { level: 1, name: 'Platform board' }).waitFor();
    await column(page, 'Todo').getByText('Write the spec').waitFor();
    // Every status a column, in the team's order, with its count.
    const headings = await page.locator('.column-heading').allInnerTexts();
    assert.deepEqual(
      headings.map((h) => h.replace(/\s+/g, ' ').trim()),
      ['Backlog 0', 'Todo 2', 'In Progress 1', 'Done 1', 'Canceled 0'],
    );
    assert.deepEqual(await columnNames(page, 'In Progress'), ['Fix the login']);
    const shipped = card(column(page, 'Done'), 'Ship v1');
    assert.match(await shipped.innerText(), /^BRD-\d+\s+Priority\s+Ship v1$/);
    await screenshot(page, 'board');

    // Drag and drop: Write the spec from Todo to In Progress.
    const from = await card(column(page, 'Todo'), 'Write the spec').boundingBox();
    const to = await column(page, 'In Progress').boundingBox();
    assert.ok(from && to);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 10 });
    await page.mouse.up();
    await card(column(page, 'In Progress'), 'Write the spec').waitFor();
    assert.deepEqual(await columnNames(page, 'Todo'), ['Order the servers']);
    await eventually(spec.id, (t) => t.statusId === status('In Progress').id);
    assert.equal(new URL(page.url()).pathname, '/teams/BRD/board', 'a drag does not open the card');

    await page.reload();
    await card(column(page, 'In Progress'), 'Write the spec').waitFor();
    assert.deepEqual(await columnNames(page, 'In Progress'), ['Write the spec', 'Fix the login']);

    // A click on a card opens its task.
    await card(column(page, 'Done'), 'Ship v1').click();
    await page.getByRole('heading', { level: 1, name: 'Ship v1' }).waitFor();
  },
);

journey('a card moved by keyboard alone (Space, arrow, Space) is saved', async (page, context) => {
  const { team, status } = await boardTeam('KEY', 'Keys');
  const task = await makeTask({ name: 'Tidy the docs', teamId: team.id, statusId: status('Todo').id });
  const stay = await makeTask({ name: 'Stay put', teamId: team.id, statusId: status('Todo').id });
  await signInAs(context, OWNER);
  await page.goto('/teams/KEY/board');
  const target = card(column(page, 'Todo'), 'Tidy the docs');
  await target.waitFor();

  // Esc puts a picked-up card back: nothing is saved.
  await target.focus();
  await page.keyboard.press('Space');
  await pickedUp(page);
  await page.keyboard.press('ArrowRight');
  await announced(page, 'is over In Progress.');
  await page.keyboard.press('Escape');
  await announced(page, 'was canceled');
  assert.deepEqual(await columnNames(page, 'Todo'), ['Stay put', 'Tidy the docs']);

  // Two columns right: Todo → In Progress → Done.
  await moveByKeyboard(page, target, ['In Progress', 'Done']);
  await card(column(page, 'Done'), 'Tidy the docs').waitFor();
  const saved = await eventually(task.id, (t) => t.statusId === status('Done').id);
  assert.equal(saved.name, 'Tidy the docs');
  assert.deepEqual(await columnNames(page, 'Todo'), ['Stay put']);

  // Two moves in a row, the second made while the first is on its way (each save held for 400 ms):
  // both saved, in order, the card shown where it goes all along.
  let saves = 0;
  await page.route('**/v1/tasks?*', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    saves += 1;
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  const moved = card(column(page, 'Todo'), 'Stay put');
  await moveByKeyboard(page, moved, ['In Progress']);
  await card(column(page, 'In Progress'), 'Stay put').waitFor();
  await moveByKeyboard(page, card(column(page, 'In Progress'), 'Stay put'), ['Done']);
  await card(column(page, 'Done'), 'Stay put').waitFor();
  assert.equal(saves, 1, 'the second move waits for the first');
  await eventually(stay.id, (t) => t.statusId === status('Done').id);
  assert.equal(await page.getByRole('alert').count(), 0, 'the second move named the first one’s version');
  assert.equal(saves, 2);
  await page.reload();
  await card(column(page, 'Done'), 'Stay put').waitFor();
  assert.deepEqual((await columnNames(page, 'Done')).sort(), ['Stay put', 'Tidy the docs']);
});

journey(
  'a 412 (the task changed meanwhile) shows the newer version, and moving it again works',
  async (page, context) => {
    const { team, status } = await boardTeam('CNF', 'Conflicts');
    const task = await makeTask({ name: 'Fix the login', teamId: team.id, statusId: status('Todo').id });
    await signInAs(context, OWNER);
    // No live stream: the board keeps the version it read, as it would in the instant before an event.
    await page.route('**/v1/events/stream*', (route) => route.abort());
    await page.goto('/teams/CNF/board');
    const target = card(column(page, 'Todo'), 'Fix the login');
    await target.waitFor();

    const changed = await f.owner.post('/v1/tasks', {
      id: task.id,
      name: 'Fix the login page',
      priority: true,
      statusId: status('In Progress').id,
    });
    assert.equal(changed.status, 200);
    await moveByKeyboard(page, target, ['In Progress', 'Done']);

    const alert = page.getByRole('alert');
    await alert
      .getByRole('heading', { name: `Someone changed CNF-${task.publicId} before your move was saved` })
      .waitFor();
    assert.match(await alert.innerText(), /Your move to Done was not saved/);
    assert.match(await alert.innerText(), /Name\s+Fix the login page\s+Status\s+In Progress/);
    assert.match(await alert.innerText(), /Priority\s+Yes/);
    // The card shows the newer version where it now is; nothing was overwritten.
    await card(column(page, 'In Progress'), 'Fix the login page').waitFor();
    assert.deepEqual(await columnNames(page, 'Done'), []);
    assert.equal((await f.owner.get(`/v1/tasks/${task.id}`)).body.statusId, status('In Progress').id);
    await assertAccessible(page, 'board, a move refused (412)');
    await screenshot(page, 'board-conflict');

    await alert.getByRole('button', { name: 'Move it to Done again' }).click();
    await card(column(page, 'Done'), 'Fix the login page').waitFor();
    const saved = await eventually(task.id, (t) => t.statusId === status('Done').id);
    assert.equal(saved.name, 'Fix the login page', 'the other change is kept');
    assert.equal(saved.priority, true);
    assert.equal(await page.getByRole('alert').count(), 0);
  },
);

journey(
  'filters in the URL (label, priority, show deleted) apply to the board and the list',
  async (page, context) => {
    const { team, status } = await boardTeam('FLT', 'Filters');
    const labelled = await f.owner.post('/v1/teams', { id: team.id, taskLabels: [{ name: 'Bug' }] });
    assert.equal(labelled.status, 200, JSON.stringify(labelled.body));
    const bug = (labelled.body as { taskLabels: { id: string }[] }).taskLabels[0]!.id;
    const todo = status('Todo').id;
    await makeTask({ name: 'Urgent bug', teamId: team.id, statusId: todo, labelIds: [bug], priority: true });
    await makeTask({ name: 'Quiet bug', teamId: team.id, statusId: todo, labelIds: [bug] });
    await makeTask({ name: 'Urgent chore', teamId: team.id, statusId: todo, priority: true });
    const gone = await makeTask({ name: 'Deleted bug', teamId: team.id, statusId: todo, labelIds: [bug] });
    assert.equal((await f.owner.delete(`/v1/tasks/${gone.id}`)).status, 204);
    await signInAs(context, OWNER);

    await page.goto(`/teams/FLT/board?label=${bug}&priority=true`);
    await page.getByRole('button', { name: 'Remove the filter Label: Bug' }).waitFor();
    await page.getByRole('button', { name: 'Remove the filter Priority only' }).waitFor();
    await column(page, 'Todo').getByText('Urgent bug').waitFor();
    assert.deepEqual(await columnNames(page, 'Todo'), ['Urgent bug']);
    assert.equal(await page.getByLabel('Label', { exact: true }).inputValue(), bug);
    assert.equal(await page.getByRole('checkbox', { name: 'Priority only' }).isChecked(), true);
    await screenshot(page, 'board-filtered');

    // The list, by the view switch: the same filters.
    await page.getByRole('navigation', { name: 'View' }).getByRole('link', { name: 'List' }).click();
    await page.getByRole('heading', { level: 1, name: 'Filters tasks' }).waitFor();
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('label'), bug);
    assert.equal(url.searchParams.get('priority'), 'true');
    await page.getByText('1 tasks').waitFor();
    const list = page.getByRole('region', { name: 'Filters tasks' });
    assert.deepEqual(await list.locator('.task-name').allInnerTexts(), ['Urgent bug']);

    // Removing the priority chip; then showing deleted tasks, by its toggle.
    await page.getByRole('button', { name: 'Remove the filter Priority only' }).click();
    await page.waitForURL((u) => !u.searchParams.has('priority'));
    await page.getByText('2 tasks').waitFor();
    await page.getByRole('checkbox', { name: 'Show deleted' }).check();
    await page.waitForURL((u) => u.searchParams.get('deleted') === 'true');
    await page.getByText('3 tasks').waitFor();
    assert.deepEqual((await list.locator('.task-name').allInnerTexts()).sort(), [
      'Deleted bug',
      'Quiet bug',
      'Urgent bug',
    ]);
    await assertAccessible(page, 'team tasks, label and deleted');

    // Back on the board: the deleted task shows, marked, and cannot be moved.
    await page.getByRole('navigation', { name: 'View' }).getByRole('link', { name: 'Board' }).click();
    await column(page, 'Todo').getByText('Deleted bug').waitFor();
    assert.deepEqual((await columnNames(page, 'Todo')).sort(), ['Deleted bug', 'Quiet bug', 'Urgent bug']);
    const deleted = card(column(page, 'Todo'), 'Deleted bug');
    assert.match(await deleted.innerText(), /Deleted/);
    assert.equal(await deleted.getAttribute('aria-disabled'), 'true');
    await page.getByRole('button', { name: 'Remove the filter Showing deleted' }).click();
    await page.waitForURL((u) => !u.searchParams.has('deleted'));
    assert.deepEqual((await columnNames(page, 'Todo')).sort(), ['Quiet bug', 'Urgent bug']);
  },
);

journey('the board is accessible in both themes, and usable at 375 px', async (page, context) => {
  const { team, status } = await boardTeam('A11Y', 'Access');
  await f.owner.post('/v1/teams', { id: team.id, taskLabels: [{ name: 'Design', color: '#2f855a' }] });
  for (const [name, s] of [
    ['Sketch the layout', 'Todo'],
    ['Review the colours', 'In Progress'],
    ['Publish the guide', 'Canceled'],
  ] as const)
    await makeTask({ name, teamId: team.id, statusId: status(s).id, dueDate: '2020-01-01' });
  await signInAs(context, OWNER);
  await page.goto('/teams/A11Y/board');
  await column(page, 'Todo').getByText('Sketch the layout').waitFor();
  await assertAccessible(page, 'board');

  await page.setViewportSize({ width: 375, height: 740 });
  await page.reload();
  await column(page, 'Todo').getByText('Sketch the layout').waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `the page is ${width} px wide`);
  const board = page.locator('.board');
  const sizes = await board.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  assert.ok(sizes.scroll > sizes.client * 3, `the columns scroll sideways: ${JSON.stringify(sizes)}`);
  // The last column is reached by scrolling the board, and a card there moves by keyboard.
  const last = card(column(page, 'Canceled'), 'Publish the guide');
  await last.scrollIntoViewIfNeeded();
  assert.ok(await last.isVisible());
  assert.match(await last.innerText(), /^A11Y-\d+\s/, 'a card keeps its id on a narrow screen');
  await assertAccessible(page, 'board at 375 px');
  await screenshot(page, 'narrow-board');
  await moveByKeyboard(page, card(column(page, 'Todo'), 'Sketch the layout'), ['In Progress']);
  await card(column(page, 'In Progress'), 'Sketch the layout').waitFor();
});
