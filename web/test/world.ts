// The browser journeys' world, shared by every web/test/*.test.ts that drives Chromium: Debian's Chromium
// driven by playwright-core (headless) against a real Cairn listening on a free port whose
// CAIRN_PUBLIC_URL is that address (cookie writes must come from it). One browser per file, a fresh
// context (cookies, storage) per test. axe-core runs on every screen a test reaches: no serious or
// critical violation. Once, in the SQLite pass: the app's behaviour does not depend on the database,
// which the API's own tests cover on both.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { freePort } from '../../scripts/servers.ts';
import { hashPassword, storePasswordHash } from '../../src/modules/auth/passwords.ts';
import { type Client, type Fixture, onPostgres, setup } from '../../src/test/helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
/** CAIRN_SCREENSHOTS=<folder>: each journey leaves pictures of its screens there (for docs/ and review). */
const SCREENSHOTS = process.env.CAIRN_SCREENSHOTS;
export const PASSWORD = 'granite-cairn-path-42';

interface World {
  f: Fixture;
  baseUrl: string;
  browser: Browser;
}

/** Cairn on a free port (its public URL that address), the owner's password set, and the browser. */
async function start(): Promise<World> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Webhook receivers of the journeys listen on 127.0.0.1, which Cairn refuses unless allowed.
  const f = await setup(undefined, { CAIRN_PUBLIC_URL: baseUrl, CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
  await f.app.listen({ port, host: '127.0.0.1' });
  await storePasswordHash(f.database.db, f.ws.workspace.id, f.ws.user.id, await hashPassword(PASSWORD));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  after(() => browser.close());
  return { f, baseUrl, browser };
}

const world = onPostgres ? undefined : await start();
const { baseUrl, browser } = world ?? ({} as World);
/** The Cairn under test: its owner client (`f.owner`), workspace and database. */
export const f = world?.f ?? ({} as Fixture);

export const journey = (name: string, fn: (page: Page, context: BrowserContext) => Promise<void>) =>
  test(name, { skip: onPostgres && 'the browser journeys run once, in the SQLite pass' }, async () => {
    const context = await browser.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems = watchPage(page);
    try {
      await fn(page, context);
      assert.deepEqual(problems, [], 'script errors or Content-Security-Policy violations on the page');
    } finally {
      await context.close();
    }
  });

/** Uncaught errors and CSP violations the page met (a CSP violation is logged as a console error). */
function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      problems.push(`csp: ${message.text()}`);
  });
  return problems;
}

/** axe-core on the page as it is now: no serious or critical violation, in the light and dark themes. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  // page.evaluate runs through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axe.source);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe, loaded into the page above.
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
      return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(violations, [], `${screen} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: null });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
}

/** Signs the context in through the API, as the sign-in form does (the cookie lands in the context). */
export async function signInAs(context: BrowserContext, email: string, password = PASSWORD): Promise<void> {
  const res = await context.request.post('/v1/auth/sign-in', {
    data: { email, password },
    headers: { origin: baseUrl },
  });
  assert.equal(res.status(), 200, await res.text());
}

export async function makeTeam(owner: Client, publicId: string, name: string) {
  const res = await owner.post('/v1/teams', { name, publicId });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; taskStatuses: { id: string; name: string }[] };
}
