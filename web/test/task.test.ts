// A task's page and creating tasks, in Chromium (web/test/world.ts): opening a task from the list,
// editing its fields and description (kept over a reload), a 412 resolved, comments with replies,
// reactions and resolve, delete and undo, `C` by keyboard alone, a task from a template, 375 px.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assertAccessible, f, journey, makeTeam, screenshot, signInAs } from './world.ts';

const OWNER = 'olive@acme.test';

interface ApiTask {
  id: string;
  publicId: number;
  name: string;
  statusId: string;
  assignedToId: string | null;
  teamId?: string;
  areaId?: string;
  labelIds: string[];
  priority: boolean;
  deletedAt: string | null;
  description: { html: string; markdown?: string };
}

async function makeTask(body: Record<string, unknown>): Promise<ApiTask> {
  const res = await f.owner.post('/v1/tasks', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as ApiTask;
}

async function readTask(id: string): Promise<ApiTask> {
  const res = await f.owner.get(`/v1/tasks/${id}?includeMarkdown=true`);
  assert.equal(res.status, 200);
  return res.body as ApiTask;
}

/** Waits until the API's task passes the check (a save is on its way), or fails with what it is. */
async function eventually(id: string, check: (task: ApiTask) => boolean): Promise<ApiTask> {
  let task = await readTask(id);
  for (let i = 0; i < 100 && !check(task); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    task = await readTask(id);
  }
  assert.ok(check(task), JSON.stringify(task));
  return task;
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

journey(
  'a task opens from the list; a field and the description are saved and kept',
  async (page, context) => {
    const team = await makeTeam(f.owner, 'TPG', 'Pages');
    const labelled = await f.owner.post('/v1/teams', {
      id: team.id,
      taskLabels: [{ name: 'Bug' }, { name: 'Docs' }],
    });
    assert.equal(labelled.status, 200, JSON.stringify(labelled.body));
    const labels = (labelled.body as { taskLabels: { id: string; name: string }[] }).taskLabels;
    const task = await makeTask({ name: 'Write the launch plan', teamId: team.id });
    const started = team.taskStatuses.find((s) => s.name === 'In Progress')!;
    await signInAs(context, OWNER);

    await page.goto('/teams/TPG/tasks');
    await page.getByRole('link', { name: 'Write the launch plan' }).click();
    await heading(page, 'Write the launch plan').waitFor();
    assert.equal(new URL(page.url()).pathname, `/tasks/${task.publicId}`);
    assert.equal(await page.getByText(`TPG-${task.publicId}`).count(), 1);
    await assertAccessible(page, 'task page');
    await screenshot(page, 'task');

    // Fields save as they change.
    const details = page.getByRole('complementary', { name: 'Details' });
    await details.getByLabel('Status').selectOption({ label: 'In Progress' });
    await eventually(task.id, (t) => t.statusId === started.id);
    await details.getByLabel('Docs').check();
    await details.getByLabel('High priority').check();
    await eventually(task.id, (t) => t.priority && t.labelIds.join() === labels[1]!.id);

    // The description: written in Markdown, previewed, saved, rendered by the API.
    await page.getByRole('button', { name: 'Add a description' }).click();
    await page.getByLabel('Description (Markdown)').fill('## Steps\n\n- **ship** it\n- tell <b>everyone</b>');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.locator('strong', { hasText: 'ship' }).waitFor();
    // Raw HTML is text in the preview: nothing of the draft runs or renders as markup.
    assert.equal(await preview.locator('b').count(), 0);
    await assertAccessible(page, 'description preview');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 2, name: 'Steps' }).waitFor();
    await eventually(task.id, (t) => t.description.markdown?.startsWith('## Steps') === true);

    // Renamed in place.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Write the launch plan, v2');
    await page.keyboard.press('Enter');
    await heading(page, 'Write the launch plan, v2').waitFor();

    await page.reload();
    await heading(page, 'Write the launch plan, v2').waitFor();
    assert.equal(await details.getByLabel('Status').inputValue(), started.id);
    assert.equal(await details.getByLabel('Docs').isChecked(), true);
    assert.equal(await details.getByLabel('Bug').isChecked(), false);
    assert.equal(await details.getByLabel('High priority').isChecked(), true);
    assert.equal(await page.locator('.rich-text strong').innerText(), 'ship');
    // The history, from the events feed.
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('Created').waitFor();
    await history.getByText('Changed name (was Write the launch plan)').waitFor();
    await history.getByText('Changed status (was Todo)').waitFor();
  },
);

journey('a 412 shows the newer version beside mine, and saving mine again works', async (page, context) => {
  const team = await makeTeam(f.owner, 'TCF', 'Conflicts');
  const task = await makeTask({ name: 'Agree the budget', teamId: team.id, description: 'First draft' });
  await signInAs(context, OWNER);
  await page.goto(`/tasks/TCF-${task.publicId}`);
  await heading(page, 'Agree the budget').waitFor();

  await page.getByRole('button', { name: 'Edit description' }).click();
  const editor = page.getByLabel('Description (Markdown)');
  assert.equal(await editor.inputValue(), 'First draft');
  await editor.fill('My version');
  // Meanwhile someone changes it through the API.
  const theirs = await f.owner.post('/v1/tasks', { id: task.id, description: 'Their version' });
  assert.equal(theirs.status, 200);
  await page.getByRole('button', { name: 'Save' }).click();

  const conflict = page.getByRole('alert').filter({ hasText: 'Someone changed this task' });
  await conflict.waitFor();
  assert.equal(await conflict.locator('pre').first().innerText(), 'My version');
  assert.equal(await conflict.locator('pre').nth(1).innerText(), 'Their version');
  assert.equal((await readTask(task.id)).description.markdown, 'Their version');
  await assertAccessible(page, 'task conflict');
  await screenshot(page, 'task-conflict');

  await conflict.getByRole('button', { name: 'Save mine over it' }).click();
  await conflict.waitFor({ state: 'detached' });
  await eventually(task.id, (t) => t.description.markdown === 'My version');
  await page.locator('.rich-text', { hasText: 'My version' }).waitFor();
});

journey('comments: post, reply, react and resolve', async (page, context) => {
  const team = await makeTeam(f.owner, 'TCM', 'Comments');
  const task = await makeTask({ name: 'Pick a venue', teamId: team.id });
  await signInAs(context, OWNER);
  await page.goto(`/tasks/${task.publicId}`);
  await heading(page, 'Pick a venue').waitFor();
  const me = f.ws.user.name;

  await page.getByLabel('Add a comment').fill('What about the *old mill*?');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  const thread = page.locator('.thread').first();
  await thread.locator('em', { hasText: 'old mill' }).waitFor();
  assert.equal(await page.getByLabel('Add a comment').inputValue(), '');

  await thread.getByRole('button', { name: 'Reply', exact: true }).click();
  await page.getByLabel(`Reply to ${me}`).fill('Booked for Friday');
  await page.getByRole('button', { name: 'Post reply' }).click();
  const replies = page.getByRole('list', { name: `Replies to ${me}` });
  await replies.getByText('Booked for Friday').waitFor();

  const thumbs = thread.locator('.comment').first().getByRole('button', { name: 'Thumbs up: 0' });
  await thumbs.click();
  const pressed = thread.locator('.comment').first().getByRole('button', { name: 'Thumbs up: 1' });
  await pressed.waitFor();
  assert.equal(await pressed.getAttribute('aria-pressed'), 'true');

  await thread.getByRole('button', { name: 'Resolve' }).click();
  await thread.getByRole('button', { name: 'Reopen' }).waitFor();
  await thread.getByText('Resolved', { exact: true }).waitFor();
  await assertAccessible(page, 'task comments');
  await screenshot(page, 'task-comments');

  const posts = await f.owner.get(`/v1/posts/list?entityType=task&entityId=${task.id}`);
  const [post] = (
    posts.body as { data: { id: string; isResolved: boolean; reactions: { reaction: string }[] }[] }
  ).data;
  assert.ok(post);
  assert.equal(post.isResolved, true);
  assert.deepEqual(
    post.reactions.map((r) => r.reaction),
    ['thumbsup'],
  );
  const replyList = await f.owner.get(`/v1/posts/${post.id}/replies`);
  assert.deepEqual(
    (replyList.body as { data: { content: string }[] }).data.map((r) => r.content),
    ['Booked for Friday'],
  );
});

journey('delete, then Undo restores the task', async (page, context) => {
  const team = await makeTeam(f.owner, 'TDL', 'Deletes');
  const task = await makeTask({ name: 'Old idea', teamId: team.id });
  await signInAs(context, OWNER);
  await page.goto(`/tasks/${task.publicId}`);
  await heading(page, 'Old idea').waitFor();

  await page.getByRole('button', { name: 'Delete' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Task deleted.' });
  await notice.waitFor();
  await eventually(task.id, (t) => t.deletedAt !== null);
  // Undo has the focus: Enter takes it back.
  const undo = notice.getByRole('button', { name: 'Undo' });
  assert.equal(await undo.evaluate((el) => el === document.activeElement), true);
  assert.equal(await page.getByLabel('Status').isDisabled(), true);
  await assertAccessible(page, 'task deleted');
  await page.keyboard.press('Enter');
  await notice.waitFor({ state: 'detached' });
  await eventually(task.id, (t) => t.deletedAt === null);
  await page.getByRole('button', { name: 'Delete' }).waitFor();
  const history = page.getByRole('region', { name: 'History' });
  await history.getByText('Restored').waitFor();
  await history.getByText('Deleted').waitFor();
});

journey('C creates a task with team, status and assignee chosen by keyboard alone', async (page, context) => {
  await makeTeam(f.owner, 'TKA', 'Keyboard Alpha');
  // The only team whose name starts with Z: one key chooses it, with no type-ahead timing (Chromium
  // forgets typed letters after a second, which a busy CI machine can exceed between keys).
  const zulu = await makeTeam(f.owner, 'TKZ', 'Zulu Keyboard');
  await signInAs(context, OWNER);
  await page.goto('/teams/TKA/tasks');
  await page.getByRole('heading', { name: 'Keyboard Alpha tasks' }).waitFor();

  await page.keyboard.press('c');
  const dialog = page.getByRole('dialog', { name: 'Create a task' });
  await dialog.waitFor();
  const team = dialog.getByLabel('Team');
  await team.locator('option', { hasText: 'Zulu Keyboard' }).waitFor({ state: 'attached' });
  // The page's team is chosen; the name has the focus (moved there once the dialog has opened).
  assert.equal(await team.inputValue(), (await teamIdOf('TKA'))!);
  const name = dialog.getByLabel('Name');
  await name.evaluate(
    (el) =>
      new Promise((settle) =>
        el === document.activeElement ? settle(true) : el.addEventListener('focus', settle, { once: true }),
      ),
  );
  await page.keyboard.type('Order the chairs');
  assert.equal(await name.inputValue(), 'Order the chairs');
  await page.keyboard.press('Tab');
  await page.keyboard.press('z'); // the select's own type-to-choose
  assert.equal(await team.inputValue(), zulu.id);
  await page.keyboard.press('Tab');
  // Status, tabbed to at once as a quick typist does (it must not be skipped as still loading): from
  // Todo (the default) one down is In Progress.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown'); // from No one to the team's one member: me
  await page.keyboard.press('Tab');
  await page.keyboard.type('Forty, *stackable*');
  await assertAccessible(page, 'create task dialog');
  await screenshot(page, 'create-task');
  await page.keyboard.press('Control+Enter');

  await heading(page, 'Order the chairs').waitFor();
  assert.equal(await dialog.count(), 0);
  const publicId = new URL(page.url()).pathname.split('/').at(-1)!;
  const made = await readTask(publicId);
  assert.equal(made.teamId, zulu.id);
  assert.equal(made.statusId, zulu.taskStatuses.find((s) => s.name === 'In Progress')!.id);
  assert.equal(made.assignedToId, f.ws.user.id);
  assert.equal(made.description.markdown, 'Forty, *stackable*');
});

async function teamIdOf(code: string): Promise<string | undefined> {
  const res = await f.owner.get(`/v1/teams/${code}`);
  return (res.body as { id?: string }).id;
}

journey('a task made from a template, through the create dialog', async (page, context) => {
  const area = await f.owner.post('/v1/areas', { name: 'People', publicId: 'PPL' });
  assert.equal(area.status, 201, JSON.stringify(area.body));
  const areaId = (area.body as { id: string }).id;
  const template = await f.owner.post('/v1/task-templates', {
    areaId,
    name: 'Onboard a new hire',
    description: 'Laptop, accounts, a buddy.',
  });
  assert.equal(template.status, 201, JSON.stringify(template.body));
  await signInAs(context, OWNER);
  await page.goto('/');
  await page.getByRole('heading', { name: 'My work' }).waitFor();

  await page.keyboard.press('c');
  const dialog = page.getByRole('dialog', { name: 'Create a task' });
  await dialog.waitFor();
  const choice = dialog.getByLabel('From a template');
  await choice.locator('option', { hasText: 'Onboard a new hire' }).waitFor({ state: 'attached' });
  await choice.selectOption({ label: 'Onboard a new hire' });
  assert.equal(await dialog.getByLabel('Team').count(), 0);
  await dialog.getByLabel('Name').fill('Onboard Ada');
  await dialog.getByRole('button', { name: 'Create task' }).click();

  await heading(page, 'Onboard Ada').waitFor();
  await page.getByText('Laptop, accounts, a buddy.').waitFor();
  const publicId = new URL(page.url()).pathname.split('/').at(-1)!;
  const made = await readTask(publicId);
  assert.equal(made.areaId, areaId);
  assert.equal(await page.getByText(`PPL-${made.publicId}`).count(), 1);
  await assertAccessible(page, 'task from a template');
});

journey('the task page works at 375 px', async (page, context) => {
  const team = await makeTeam(f.owner, 'TNR', 'Narrow');
  const task = await makeTask({
    name: 'A task with a rather long name that has to wrap on a phone screen',
    teamId: team.id,
    description: 'Some `code` and a [link](https://example.com/a/very/long/path/that/should/wrap/nicely)',
  });
  await page.setViewportSize({ width: 375, height: 740 });
  await signInAs(context, OWNER);
  await page.goto(`/tasks/${task.publicId}`);
  await heading(page, task.name).waitFor();
  await page.getByLabel('Status').selectOption({ label: 'Done' });
  await eventually(task.id, (t) => t.statusId === team.taskStatuses.find((s) => s.name === 'Done')!.id);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `the page is ${width} px wide`);
  await assertAccessible(page, 'task page, narrow');
  await screenshot(page, 'task-narrow');
});
