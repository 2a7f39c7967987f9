// The web app's serving (http/web-app.ts) beside the API: index.html with its Content-Security-Policy for
// the app's paths, hashed assets cached for a year (and sent compressed), and every path of the API,
// its documentation and its errors exactly as before. Needs web/dist, which `npm install` builds.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { problem, setup } from '../test/helpers.ts';
import { APP_CSP, isAppPath, WEB_ROOT } from './web-app.ts';

const f = await setup();
const anonymous = f.anonymous;

const assets = readdirSync(join(WEB_ROOT, 'assets'));
const entry = assets.find((name) => /^index-[\w-]+\.js$/.test(name));

function assertAppPage(res: { status: number; headers: Record<string, unknown>; body: unknown }) {
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-cache');
  assert.equal(res.headers['content-security-policy'], APP_CSP);
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(String(res.body), /<div id="root"><\/div>/);
}

test('the build has one hashed entry script, and index.html loads it with no inline script', async () => {
  assert.ok(entry, `no index-<hash>.js in ${assets.join(', ')}`);
  const res = await anonymous.get('/');
  assertAppPage(res);
  const scripts = [...String(res.body).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(scripts, [`<script type="module" crossorigin src="/assets/${entry}">`]);
  assert.doesNotMatch(String(res.body), /<script\b[^>]*>[^<]/, 'an inline script');
});

test("the CSP allows only this origin's scripts, never inline ones", () => {
  const directives = new Map(
    APP_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as [string, string[]]),
  );
  assert.deepEqual(directives.get('script-src'), ["'self'"]);
  assert.deepEqual(directives.get('default-src'), ["'self'"]);
  assert.deepEqual(directives.get('object-src'), ["'none'"]);
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
});

test("every app path answers index.html, whatever the app's router makes of it", async () => {
  for (const path of [
    '/sign-in',
    '/sign-in?redirect=%2Fteams%2FENG%2Ftasks',
    '/teams/ENG/tasks?status=3f1c2d4e-0000-4000-8000-000000000000&q=login',
    '/invite/abc_DEF-123',
    '/reset-password/abc',
    '/no/such/screen',
    '/v1beta',
    '/docsify',
  ]) {
    assertAppPage(await anonymous.get(path));
  }
  const head = await f.app.inject({ method: 'HEAD', url: '/teams/ENG/tasks' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers['content-security-policy'], APP_CSP);
});

test('a hashed asset is cached for a year as immutable, and sent compressed when the browser takes it', async () => {
  const plain = await anonymous.get(`/assets/${entry}`);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(plain.headers['content-type']), /^text\/javascript|^application\/javascript/);
  assert.equal(plain.headers['content-encoding'], undefined);

  const br = await anonymous.get(`/assets/${entry}`, { 'accept-encoding': 'br, gzip' });
  assert.equal(br.status, 200);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(br.headers['vary'], 'accept-encoding');

  const gzip = await anonymous.get(`/assets/${entry}`, { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
});

test('a missing asset or file is a problem+json 404, never index.html served as a script', async () => {
  for (const path of ['/assets/index-missing.js', '/assets/', '/robots.txt', '/favicon.ico']) {
    const res = await anonymous.get(path);
    problem(res, 404, 'not_found');
    assert.equal(res.headers['content-security-policy'], undefined);
  }
});

test('the API keeps its own answers: unknown /v1 paths, 405s, auth, health, the document and /docs', async () => {
  assert.equal(
    problem(await anonymous.get('/v1/nope'), 404, 'not_found').detail,
    'No route for GET /v1/nope',
  );
  problem(await anonymous.get('/v1'), 404, 'not_found');
  problem(await anonymous.post('/v1/nope', {}), 404, 'not_found');
  // A POST to an app path is no route (not a 405 pointing at GET: the app's paths are not routes).
  problem(await anonymous.post('/sign-in', {}), 404, 'not_found');
  problem(await anonymous.post('/', {}), 404, 'not_found');
  problem(await anonymous.get('/v1/me'), 401, 'unauthenticated');
  problem(await f.owner.get('/v1/tasks'), 405, 'method_not_allowed');
  assert.equal((await anonymous.get('/healthz')).status, 200);
  const document = await anonymous.get('/openapi.json');
  assert.equal(document.status, 200);
  assert.equal(document.body.openapi, '3.1.0');
  const docs = await anonymous.get('/docs/');
  assert.equal(docs.status, 200);
  assert.doesNotMatch(String(docs.body), /<div id="root">/);
  assert.notEqual(docs.headers['content-security-policy'], APP_CSP);
});

test('isAppPath: the API, its documentation and files are not app paths', () => {
  for (const path of ['/', '/sign-in', '/teams/ENG/tasks', '/v1beta', '/docsify'])
    assert.ok(isAppPath(path), path);
  for (const path of [
    '/v1',
    '/v1/tasks',
    '/docs',
    '/docs/static/x',
    '/openapi.json',
    '/healthz',
    '/readyz',
    '/metrics',
  ])
    assert.ok(!isAppPath(path), path);
  for (const path of ['/assets/a.js', '/robots.txt', '/x/y.png']) assert.ok(!isAppPath(path), path);
});
