// Live updates through GET /v1/events/stream: a change made by someone else (in their browser, or
// through the API) shows on an open list within 2 s without a reload, and after a network drop the
// app says it is reconnecting and catches up by itself (web/test/world.ts: Chromium, a real Cairn).
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { hashPassword, storePasswordHash } from '../../src/modules/auth/passwords.ts';
import { assertAccessible, f, journey, makeTeam, PASSWORD, signInAs } from './world.ts';

const LIVE_MS = 2_000;

/** A member with a password, signed in in the given context. */
async function signInMember(context: BrowserContext, name: string, email: string) {
  const res = await f.owner.post('/v1/users', { name, email, role: 'member' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await storePasswordHash(f.database.db, f.ws.workspace.id, res.body.id, await hashPassword(PASSWORD));
  await signInAs(context, email);
}

/** Opens a team's list and waits until its live stream is open; marks the page, to tell later that it
 *  was not reloaded. */
async function openList(page: Page, teamKey: string, first: string) {
  await page.goto(`/teams/${teamKey}/tasks`);
  await page.getByText(first).waitFor();
  await page.locator('.live-status[data-state="open"]').waitFor({ state: 'attached' });
  await page.evaluate(() => {
    (window as unknown as { liveMark: number }).liveMark = 1;
  });
}

async function notReloaded(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark === 1);
}

/** Waits for a text in the page's list, at most `ms` after `since`. */
async function seenWithin(page: Page, team: string, text: string, since: number, ms = LIVE_MS) {
  const list = page.getByRole('region', { name: `${team} tasks` });
  await list.getByText(text, { exact: true }).waitFor({ timeout: ms + 1_000 });
  const took = Date.now() - since;
  assert.ok(took < ms, `"${text}" showed after ${took} ms`);
}

journey(
  "two people on one team list: each sees the other's new and renamed tasks within 2 s, no reload",
  async (page, context) => {
    const team = await makeTeam(f.owner, 'LIV', 'Live');
    await f.owner.post('/v1/tasks', { name: 'Already there', teamId: team.id });
    await signInAs(context, 'olive@acme.test');
    await openList(page, 'LIV', 'Already there');
    const origin = new URL(page.url()).origin;
    const other = await context.browser()!.newContext({ baseURL: origin });
    try {
      await signInMember(other, 'Mia Member', 'mia@acme.test');
      const mia = await other.newPage();
      await openList(mia, 'LIV', 'Already there');

      // Mia makes a task (her session, as her browser would): Olive's list shows it.
      let since = Date.now();
      const made = await other.request.post('/v1/tasks', {
        data: { name: 'Made by Mia', teamId: team.id },
        headers: { origin },
      });
      assert.equal(made.status(), 201, await made.text());
      await seenWithin(page, 'Live', 'Made by Mia', since);
      await page.getByText('2 tasks').waitFor({ timeout: LIVE_MS });

      // Someone renames it through the API: both lists show the new name in place.
      since = Date.now();
      const id = (await made.json()).id;
      const renamed = await f.owner.post('/v1/tasks', { id, name: 'Renamed through the API' });
      assert.equal(renamed.status, 200);
      await seenWithin(mia, 'Live', 'Renamed through the API', since);
      await seenWithin(page, 'Live', 'Renamed through the API', since);
      assert.equal(await page.getByText('Made by Mia').count(), 0);

      // Olive's own change reaches Mia the same way.
      since = Date.now();
      const olives = await context.request.post('/v1/tasks', {
        data: { name: 'Made by Olive', teamId: team.id },
        headers: { origin },
      });
      assert.equal(olives.status(), 201, await olives.text());
      await seenWithin(mia, 'Live', 'Made by Olive', since);
      assert.equal(await notReloaded(page), true, "Olive's page was not reloaded");
      assert.equal(await notReloaded(mia), true, "Mia's page was not reloaded");
    } finally {
      await other.close();
    }
  },
);

journey(
  'after a network drop the app says it is reconnecting, then catches up by itself',
  async (page, context) => {
    const team = await makeTeam(f.owner, 'NET', 'Network');
    await f.owner.post('/v1/tasks', { name: 'Before the drop', teamId: team.id });
    await signInAs(context, 'olive@acme.test');
    await openList(page, 'NET', 'Before the drop');
    const status = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
    assert.equal(await status.count(), 0);

    await context.setOffline(true);
    await status.waitFor();
    await assertAccessible(page, 'team tasks, reconnecting');
    const made = await f.owner.post('/v1/tasks', { name: 'Made while offline', teamId: team.id });
    assert.equal(made.status, 201);
    const renamed = await f.owner.post('/v1/tasks', { id: made.body.id, name: 'Renamed while offline' });
    assert.equal(renamed.status, 200);

    await context.setOffline(false);
    // The browser retries on its own (every few seconds), resuming after the last event it had.
    const list = page.getByRole('region', { name: 'Network tasks' });
    await list.getByText('Renamed while offline', { exact: true }).waitFor({ timeout: 15_000 });
    await status.waitFor({ state: 'detached' });
    await page.getByText('2 tasks').waitFor();
    assert.equal(await notReloaded(page), true, 'the page was not reloaded');

    // And it goes on: a change after the reconnection shows live.
    const since = Date.now();
    await f.owner.post('/v1/tasks', { name: 'After the drop', teamId: team.id });
    await seenWithin(page, 'Network', 'After the drop', since);
  },
);

journey(
  'when the server drops the stream, the browser reconnects with Last-Event-ID and gets what it missed',
  async (page, context) => {
    // The connections the browser makes from now on, to cut them from the server's side.
    const sockets = new Set<Socket>();
    const track = (socket: Socket) => sockets.add(socket);
    f.app.server.on('connection', track);
    try {
      const team = await makeTeam(f.owner, 'CUT', 'Cut');
      await f.owner.post('/v1/tasks', { name: 'Before the cut', teamId: team.id });
      await signInAs(context, 'olive@acme.test');
      await openList(page, 'CUT', 'Before the cut');
      // One event first, so that the browser holds a position to resume from.
      let since = Date.now();
      await f.owner.post('/v1/tasks', { name: 'Seen live', teamId: team.id });
      await seenWithin(page, 'Cut', 'Seen live', since);

      const resumes: Promise<string | undefined>[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/v1/events/stream'))
          resumes.push(request.allHeaders().then((headers) => headers['last-event-id']));
      });
      for (const socket of sockets) socket.destroy();
      await page.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor();
      await f.owner.post('/v1/tasks', { name: 'Made during the cut', teamId: team.id });
      const list = page.getByRole('region', { name: 'Cut tasks' });
      await list.getByText('Made during the cut', { exact: true }).waitFor({ timeout: 10_000 });
      await page.locator('.live-status[data-state="open"]').waitFor({ state: 'attached' });
      await page.getByText('3 tasks').waitFor();
      assert.equal(await notReloaded(page), true, 'the page was not reloaded');
      assert.equal(resumes.length, 1, 'one new connection');
      assert.ok(await resumes[0], 'it resumed from the last position (Last-Event-ID)');

      since = Date.now();
      await f.owner.post('/v1/tasks', { name: 'After the cut', teamId: team.id });
      await seenWithin(page, 'Cut', 'After the cut', since);
    } finally {
      f.app.server.off('connection', track);
    }
  },
);
