// Projects in the browser (web/test/world.ts sets up Cairn and Chromium): a team's list with its
// filters in the URL, a project's page (tasks, the status updates' timeline, posting one, archive and
// unarchive), and a new project, blank or from a template. axe in light and dark on every screen.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assertAccessible, f, journey, makeTeam, screenshot, signInAs } from './world.ts';

interface Status {
  id: string;
  name: string;
}
interface Project {
  id: string;
  publicId: string;
  name: string;
  statusId: string;
  archivedAt: string | null;
}

async function statuses(): Promise<Status[]> {
  const res = await f.owner.get('/v1/project-statuses');
  assert.equal(res.status, 200);
  return (res.body as { data: Status[] }).data;
}

async function makeProject(body: Record<string, unknown>): Promise<Project> {
  const res = await f.owner.post('/v1/projects', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as Project;
}

async function readProject(id: string): Promise<Project> {
  const res = await f.owner.get(`/v1/projects/${id}`);
  assert.equal(res.status, 200);
  return res.body as Project;
}

async function noOverflow(page: Page, what: string): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `${what} is ${width} px wide`);
}

const rowNames = (page: Page) =>
  page
    .getByRole('list', { name: /projects$/ })
    .getByRole('link')
    .allInnerTexts();

journey('a team’s projects, with the status and archived filters in the URL', async (page, context) => {
  const team = await makeTeam(f.owner, 'PRJ', 'Harbor');
  const all = await statuses();
  const paused = all.find((s) => s.name === 'Paused')!;
  await makeProject({ name: 'Quay lights', teamId: team.id });
  await makeProject({ name: 'Tide tables', teamId: team.id, statusId: paused.id });
  const old = await makeProject({ name: 'Old pier', teamId: team.id });
  assert.equal((await f.owner.post(`/v1/projects/${old.id}/archive`)).status, 200);

  await signInAs(context, 'olive@acme.test');
  await page.goto('/teams/PRJ/projects');
  await page.getByRole('heading', { name: 'Harbor projects' }).waitFor();
  await page.getByText('2 projects').waitFor();
  assert.deepEqual(await rowNames(page), ['Tide tables', 'Quay lights']);
  const tide = page.getByRole('listitem').filter({ hasText: 'Tide tables' });
  assert.match(await tide.innerText(), /Paused/);
  await assertAccessible(page, 'team projects');

  await page.getByLabel('Show archived').check();
  await page.waitForURL(/archived=true/);
  await page.getByText('3 projects').waitFor();
  const pier = page.getByRole('listitem').filter({ hasText: 'Old pier' });
  assert.match(await pier.innerText(), /Archived/);
  await page.reload();
  await page.getByText('3 projects').waitFor();
  assert.equal(await page.getByLabel('Show archived').isChecked(), true);

  await page.getByLabel('Status').selectOption({ label: 'Paused' });
  await page.waitForURL(new RegExp(`status=${paused.id}`));
  await page.getByText('1 project', { exact: true }).waitFor();
  assert.deepEqual(await rowNames(page), ['Tide tables']);
  await page.reload();
  await page.getByText('1 project', { exact: true }).waitFor();
  assert.equal(await page.getByLabel('Status').inputValue(), paused.id);
  await screenshot(page, 'team-projects');

  await page.getByLabel('Show archived').uncheck();
  await page.waitForURL((url) => !url.search.includes('archived'));
  await page.getByLabel('Status').selectOption({ label: 'Any status' });
  await page.getByText('2 projects').waitFor();

  // At 375 px (loaded narrow: the sidebar starts as a closed panel).
  await page.setViewportSize({ width: 375, height: 740 });
  await page.reload();
  await page.getByText('2 projects').waitFor();
  await noOverflow(page, 'team projects');
  await assertAccessible(page, 'team projects at 375 px');
});

journey(
  'a project’s page shows its tasks and timeline; a status update posted appears in it',
  async (page, context) => {
    const team = await makeTeam(f.owner, 'TML', 'Timeline');
    const all = await statuses();
    const progress = all.find((s) => s.name === 'In Progress')!;
    const done = all.find((s) => s.name === 'Completed')!;
    const project = await makeProject({
      name: 'Lighthouse beta',
      teamId: team.id,
      description: 'Ship the **beta** to ten harbours.',
    });
    const tasks: { publicId: number; name: string }[] = [];
    for (const name of ['Paint the tower', 'Test the lamp']) {
      const res = await f.owner.post('/v1/tasks', { name, teamId: team.id, projectId: project.id });
      assert.equal(res.status, 201);
      tasks.push(res.body as { publicId: number; name: string });
    }
    await f.owner.post('/v1/tasks', { name: 'Not in the project', teamId: team.id });
    const first = await f.owner.post(`/v1/projects/${project.id}/status-update`, {
      statusId: progress.id,
      content: 'Started on the tower.',
    });
    assert.equal(first.status, 200);

    await signInAs(context, 'olive@acme.test');
    await page.goto(`/projects/${project.publicId}`);
    await page.getByRole('heading', { name: 'Lighthouse beta', level: 1 }).waitFor();
    assert.equal(await page.locator('.project-description strong').innerText(), 'beta');
    const taskList = page.getByRole('list', { name: /^Tasks/ });
    await taskList.getByRole('link').first().waitFor();
    const links = await taskList
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), (a as HTMLElement).innerText]));
    assert.deepEqual(links.map(([href]) => href).sort(), tasks.map((t) => `/tasks/${t.publicId}`).sort());
    assert.ok(links.some(([, text]) => text?.includes('Paint the tower')));
    // A row opens its task's page.
    await taskList.getByText('Paint the tower').click();
    await page.waitForURL(`**/tasks/${tasks[0]!.publicId}`);
    await page.goBack();
    await page.getByRole('heading', { name: 'Lighthouse beta', level: 1 }).waitFor();
    const timeline = page.getByRole('list', { name: 'Status updates, newest first' });
    await timeline.getByText('Started on the tower.').waitFor();
    assert.match(await timeline.getByRole('listitem').first().innerText(), /In Progress/);
    await assertAccessible(page, 'project page');

    const form = page.getByRole('form', { name: 'Post a status update' });
    await form.getByLabel('New status').selectOption({ label: 'Completed' });
    await form.getByLabel('Update').fill('**Shipped** to all ten.');
    await form.getByRole('button', { name: 'Preview' }).click();
    assert.equal(await form.locator('.markdown-preview strong').innerText(), 'Shipped');
    await form.getByRole('button', { name: 'Post update' }).click();
    await timeline.getByRole('listitem').nth(1).waitFor();
    const newest = timeline.getByRole('listitem').first();
    assert.match(await newest.innerText(), /^Completed/);
    assert.equal(await newest.locator('strong').innerText(), 'Shipped');
    assert.equal(await form.getByLabel('Update').inputValue(), '', 'the form is emptied once posted');
    assert.match(await page.locator('.project-facts').innerText(), /Completed/);
    assert.equal((await readProject(project.id)).statusId, done.id);
    await screenshot(page, 'project-page');

    await page.setViewportSize({ width: 375, height: 740 });
    await page.reload();
    await timeline.getByRole('listitem').nth(1).waitFor();
    await noOverflow(page, 'the project page');
    await assertAccessible(page, 'project page at 375 px');
  },
);

journey('archive then unarchive a project from its page', async (page, context) => {
  const team = await makeTeam(f.owner, 'ARC', 'Archive');
  const project = await makeProject({ name: 'Winter moorings', teamId: team.id });
  await signInAs(context, 'olive@acme.test');
  await page.goto(`/projects/${project.publicId}`);
  await page.getByRole('heading', { name: 'Winter moorings', level: 1 }).waitFor();

  await page.getByRole('button', { name: 'Archive' }).click();
  await page.getByRole('button', { name: 'Unarchive' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'This project is archived' }).waitFor();
  assert.notEqual((await readProject(project.id)).archivedAt, null);
  await assertAccessible(page, 'archived project');

  await page.getByRole('link', { name: 'Archive', exact: true }).click();
  await page.getByRole('heading', { name: 'Archive projects' }).waitFor();
  await page.getByText('This team has no open projects.').waitFor();
  await page.goBack();

  await page.getByRole('button', { name: 'Unarchive' }).click();
  await page.getByRole('button', { name: 'Archive' }).waitFor();
  assert.equal(await page.getByText('This project is archived').count(), 0);
  assert.equal((await readProject(project.id)).archivedAt, null);
  await page.getByRole('link', { name: 'Archive', exact: true }).click();
  await page.getByRole('link', { name: 'Winter moorings' }).waitFor();
  // J highlights the first row, Enter opens it.
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Archive' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/projects/${project.publicId}`);
  await page.goBack();
  assert.deepEqual(
    await (async () => {
      await page.getByRole('link', { name: 'Winter moorings' }).waitFor();
      return rowNames(page);
    })(),
    ['Winter moorings'],
  );
});

journey('a new project, blank or from a project template with its tasks', async (page, context) => {
  await makeTeam(f.owner, 'NEW', 'Newport');
  const area = await f.owner.post('/v1/areas', { name: 'Operations', publicId: 'OPS' });
  assert.equal(area.status, 201);
  const areaId = (area.body as { id: string }).id;
  const template = await f.owner.post('/v1/project-templates', {
    name: 'Harbour opening',
    ownedByAreaId: areaId,
  });
  assert.equal(template.status, 201, JSON.stringify(template.body));
  const templateId = (template.body as { id: string }).id;
  const taskTemplate = await f.owner.post('/v1/task-templates', {
    name: 'Cut the ribbon',
    scopeType: 'project_template',
    scopeId: templateId,
  });
  assert.equal(taskTemplate.status, 201, JSON.stringify(taskTemplate.body));

  await signInAs(context, 'olive@acme.test');
  await page.goto('/teams/NEW/projects');
  await page.getByText('This team has no open projects.').waitFor();
  await assertAccessible(page, 'team projects, empty');

  // A blank one: a name refused (only spaces) keeps the dialog and what was typed, then made.
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project in Newport' });
  await dialog.getByLabel('Name').fill('   ');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await dialog.getByText('must not be empty').waitFor();
  assert.equal(await dialog.getByLabel('Name').inputValue(), '   ');
  await assertAccessible(page, 'new project dialog, refused');
  await dialog.getByLabel('Name').fill('Fuel dock');
  await dialog.getByLabel('Status').selectOption({ label: 'In Progress' });
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { name: 'Fuel dock', level: 1 }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/projects\/\d+$/);
  assert.match(await page.locator('.project-facts').innerText(), /In Progress[\s\S]*Newport/);

  // From the template: its name and its task, in its area.
  await page.goto('/teams/NEW/projects');
  await page.getByRole('link', { name: 'Fuel dock' }).waitFor();
  await page.getByRole('button', { name: 'New project' }).click();
  await dialog.getByLabel('Start from').selectOption({ label: 'Template: Harbour opening (Operations)' });
  await dialog.getByText('in the Operations area').waitFor();
  await assertAccessible(page, 'new project dialog, from a template');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { name: 'Harbour opening', level: 1 }).waitFor();
  assert.match(await page.locator('.project-facts').innerText(), /Area\s+Operations/);
  const taskList = page.getByRole('list', { name: /^Tasks/ });
  await taskList.getByText('Cut the ribbon').waitFor();
  await screenshot(page, 'project-from-template');
});
