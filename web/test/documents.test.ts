// Documents in the browser (web/test/world.ts sets up Cairn and Chromium): a team's list searched as
// the person types, a new document, editing in Markdown (kept over a reload), a 412 resolved both ways,
// delete with Undo, and deleted ones shown and restored. axe in light and dark on every screen.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assertAccessible, f, journey, makeTeam, screenshot, signInAs } from './world.ts';

interface Doc {
  id: string;
  publicId: string;
  name: string;
  deletedAt: string | null;
  description: { html: string; markdown?: string };
}

async function makeDocument(teamId: string, name: string, description?: string): Promise<Doc> {
  const res = await f.owner.post('/v1/documents', { teamId, name, ...(description ? { description } : {}) });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as Doc;
}

async function readDocument(id: string): Promise<Doc> {
  const res = await f.owner.get(`/v1/documents/${id}?includeMarkdown=true`);
  assert.equal(res.status, 200);
  return res.body as Doc;
}

const listed = (page: Page) =>
  page
    .getByRole('list', { name: /documents$/ })
    .getByRole('link')
    .allInnerTexts();

async function noOverflow(page: Page, what: string): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `${what} is ${width} px wide`);
}

journey(
  'a team’s documents, searched as one types (names and text, by prefix), and a new one',
  async (page, context) => {
    const team = await makeTeam(f.owner, 'DOC', 'Docks');
    await makeDocument(team.id, 'Launch plan', 'Budget and timeline for the launch.');
    await makeDocument(team.id, 'Harbor notes');
    await makeDocument(team.id, 'Crew roster');
    const other = await makeTeam(f.owner, 'OTH', 'Other');
    await makeDocument(other.id, 'Launch elsewhere');

    await signInAs(context, 'olive@acme.test');
    await page.goto('/teams/DOC/documents');
    await page.getByRole('heading', { name: 'Docks documents' }).waitFor();
    await page.getByText('3 documents').waitFor();
    assert.deepEqual((await listed(page)).sort(), ['Crew roster', 'Harbor notes', 'Launch plan']);
    await assertAccessible(page, 'team documents');

    const field = page.getByLabel('Search');
    await field.fill('lau');
    await page.waitForURL(/q=lau/);
    await page.getByText('1 document', { exact: true }).waitFor();
    assert.deepEqual(await listed(page), ['Launch plan']);
    await field.fill('budg');
    await page.waitForURL(/q=budg/);
    await page.getByText('1 document', { exact: true }).waitFor();
    assert.deepEqual(await listed(page), ['Launch plan'], 'a word of the text finds it too');
    await page.reload();
    await page.getByText('1 document', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Search').inputValue(), 'budg');
    await page.getByLabel('Search').fill('zebra');
    await page.getByText('No document has these words.').waitFor();
    await page.getByLabel('Search').fill('');
    await page.getByText('3 documents').waitFor();
    await screenshot(page, 'team-documents');

    // J and K move along the list (not while typing in the search), Enter opens.
    await page.getByLabel('Search').blur();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.keyboard.press('j');
    const focused = await page.evaluate(() => (document.activeElement as HTMLElement).innerText);
    assert.match(focused, /^Harbor notes/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Harbor notes', level: 1 }).waitFor();
    await page.goBack();
    await page.getByText('3 documents').waitFor();

    await page.getByRole('button', { name: 'New document' }).click();
    await page.getByLabel('Name of the new document').fill('Tide log');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('heading', { name: 'Tide log', level: 1 }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/documents\/\d+$/);
    await page.getByText('This document is empty.').waitFor();
    await assertAccessible(page, 'a new document');

    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/teams/DOC/documents');
    await page.getByText('4 documents').waitFor();
    await noOverflow(page, 'team documents');
    await assertAccessible(page, 'team documents at 375 px');
  },
);

journey('editing a document in Markdown, with its preview, is kept after a reload', async (page, context) => {
  const team = await makeTeam(f.owner, 'EDT', 'Editors');
  const doc = await makeDocument(team.id, 'Runbook', 'Old words.');
  await signInAs(context, 'olive@acme.test');
  await page.goto(`/documents/${doc.publicId}`);
  await page.getByRole('heading', { name: 'Runbook', level: 1 }).waitFor();
  assert.equal(await page.locator('.doc-body').innerText(), 'Old words.');
  await assertAccessible(page, 'a document');

  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('heading', { name: 'Editing “Runbook”' }).waitFor();
  assert.equal(await page.getByLabel('Text').inputValue(), 'Old words.');
  await page.getByLabel('Name').fill('Night runbook');
  const markdown = '## Steps\n\n1. Check the **lamp**\n2. Log it\n\n`code` and [docs](https://example.com)';
  await page.getByLabel('Text').fill(markdown);
  await page.getByRole('button', { name: 'Preview' }).click();
  assert.equal(await page.locator('.markdown-preview h2').innerText(), 'Steps');
  assert.equal(await page.locator('.markdown-preview strong').innerText(), 'lamp');
  await assertAccessible(page, 'document editor, preview');
  await page.getByRole('button', { name: 'Write' }).click();
  await screenshot(page, 'document-editor');
  await page.getByRole('button', { name: 'Save' }).click();

  await page.getByRole('heading', { name: 'Night runbook', level: 1 }).waitFor();
  assert.equal(await page.locator('.doc-body h2').innerText(), 'Steps');
  await page.reload();
  await page.getByRole('heading', { name: 'Night runbook', level: 1 }).waitFor();
  assert.equal(await page.locator('.doc-body strong').innerText(), 'lamp');
  assert.equal(await page.locator('.doc-body a').getAttribute('href'), 'https://example.com');
  const saved = await readDocument(doc.id);
  assert.equal(saved.name, 'Night runbook');
  assert.equal(saved.description.markdown, markdown);

  // Edited again and saved with Ctrl+Enter, straight after the first save (its new version in hand).
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Text').fill('Short now.');
  await page.getByLabel('Text').press('Control+Enter');
  await page.locator('.doc-body').getByText('Short now.').waitFor();
  assert.equal((await readDocument(doc.id)).description.markdown, 'Short now.');
  // At 375 px (loaded narrow: the sidebar starts as a closed panel).
  await page.setViewportSize({ width: 375, height: 740 });
  await page.reload();
  await page.getByRole('button', { name: 'Edit' }).click();
  await noOverflow(page, 'the document editor');
  await assertAccessible(page, 'document editor at 375 px');
});

journey('a 412: the newer version shown beside the draft, saved over or taken', async (page, context) => {
  const team = await makeTeam(f.owner, 'CNF', 'Conflicts');
  const doc = await makeDocument(team.id, 'Shared plan', 'First words.');
  await signInAs(context, 'olive@acme.test');
  await page.goto(`/documents/${doc.publicId}`);
  await page.getByRole('heading', { name: 'Shared plan', level: 1 }).waitFor();

  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Text').fill('My words.');
  // Someone else saves meanwhile.
  const theirs = await f.owner.post('/v1/documents', { id: doc.id, description: 'Their words.' });
  assert.equal(theirs.status, 200);
  await page.getByRole('button', { name: 'Save' }).click();
  const conflict = page.getByRole('region', {
    name: 'Someone saved this document while you were editing it',
  });
  await conflict.waitFor();
  await conflict.getByText('Their words.').waitFor();
  assert.equal(await page.getByLabel('Text').inputValue(), 'My words.', 'the draft is kept');
  assert.equal((await readDocument(doc.id)).description.markdown, 'Their words.', 'nothing overwritten');
  await assertAccessible(page, 'document conflict');
  await screenshot(page, 'document-conflict');

  await conflict.getByRole('button', { name: 'Save mine over theirs' }).click();
  await page.locator('.doc-body').getByText('My words.').waitFor();
  assert.equal((await readDocument(doc.id)).description.markdown, 'My words.');

  // Again, and this time theirs is kept.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Text').fill('Mine again.');
  await f.owner.post('/v1/documents', { id: doc.id, name: 'Shared plan v2', description: 'Theirs again.' });
  await page.getByRole('button', { name: 'Save' }).click();
  await conflict.getByRole('button', { name: 'Discard mine, keep theirs' }).click();
  await page.getByRole('heading', { name: 'Shared plan v2', level: 1 }).waitFor();
  assert.equal(await page.locator('.doc-body').innerText(), 'Theirs again.');
  assert.equal((await readDocument(doc.id)).description.markdown, 'Theirs again.');
});

journey('delete with Undo, and deleted documents shown and restored from the list', async (page, context) => {
  const team = await makeTeam(f.owner, 'DEL', 'Deletions');
  const doc = await makeDocument(team.id, 'Old manual');
  await makeDocument(team.id, 'Current manual');
  await signInAs(context, 'olive@acme.test');
  await page.goto(`/documents/${doc.publicId}`);
  await page.getByRole('heading', { name: 'Old manual', level: 1 }).waitFor();

  await page.getByRole('button', { name: 'Delete' }).click();
  const notice = page.getByRole('status').filter({ hasText: '“Old manual” is deleted.' });
  await notice.waitFor();
  const undo = notice.getByRole('button', { name: 'Undo' });
  assert.equal(await undo.evaluate((el) => el === document.activeElement), true, 'Undo has the focus');
  assert.notEqual((await readDocument(doc.id)).deletedAt, null);
  assert.equal(await page.getByRole('button', { name: 'Edit' }).isDisabled(), true);
  await assertAccessible(page, 'a deleted document');
  await undo.click();
  await page.getByRole('button', { name: 'Delete' }).waitFor();
  assert.equal((await readDocument(doc.id)).deletedAt, null);

  await page.getByRole('button', { name: 'Delete' }).click();
  await notice.waitFor();
  await page.getByRole('link', { name: 'Deletions documents' }).click();
  await page.getByText('1 document', { exact: true }).waitFor();
  assert.deepEqual(await listed(page), ['Current manual']);
  await page.getByLabel('Show deleted').check();
  await page.waitForURL(/deleted=true/);
  await page.getByText('2 documents').waitFor();
  const row = page.getByRole('listitem').filter({ hasText: 'Old manual' });
  assert.match(await row.innerText(), /Deleted/);
  await assertAccessible(page, 'team documents with deleted ones');
  await page.reload();
  await page.getByText('2 documents').waitFor();
  await row.getByRole('button', { name: 'Restore Old manual' }).click();
  await row.getByRole('button', { name: 'Restore Old manual' }).waitFor({ state: 'detached' });
  assert.equal(await row.getByText('Deleted', { exact: true }).count(), 0);
  assert.equal((await readDocument(doc.id)).deletedAt, null);

  // A document found deleted (by a link) offers Restore.
  assert.equal((await f.owner.delete(`/v1/documents/${doc.id}`)).status, 204);
  await page.goto(`/documents/${doc.publicId}`);
  await page.getByText(/^This document was deleted on /).waitFor();
  await page.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('button', { name: 'Delete' }).waitFor();
  assert.equal((await readDocument(doc.id)).deletedAt, null);
});
