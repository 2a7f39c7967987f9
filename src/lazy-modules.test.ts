// What a server loads is what its requests need: the libraries of paths it may never take are loaded
// on first use (docs/performance.md, "Start-up and idle memory"). The Markdown and HTML converters run
// in the render pool's threads, undici with the first webhook delivery, pg for a PostgreSQL URL,
// nodemailer with the first mail. This records every module name resolved while a server is built and
// answers a write, and fails when one of them is loaded up front again. (One process per test file:
// nothing else has loaded them here.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const resolved = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    resolved.add(specifier);
    return next(specifier, context);
  },
});

const LAZY = ['markdown-it', 'sanitize-html', 'turndown', 'undici', 'pg', 'nodemailer'];

test('a server on SQLite loads no converter, webhook client or PostgreSQL driver until one is used', async () => {
  const { buildApp } = await import('./app.ts');
  const { loadConfig } = await import('./config.ts');
  const { openDatabase } = await import('./db/index.ts');
  const { migrateToLatest } = await import('./db/migrate.ts');
  const { startWebhookWorker } = await import('./modules/webhooks/worker.ts');
  const { createWorkspace } = await import('./modules/workspaces/service.ts');

  const dir = mkdtempSync(join(tmpdir(), 'cairn-lazy-'));
  const database = openDatabase(`file:${join(dir, 'test.db')}`);
  const config = loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test' });
  try {
    await migrateToLatest(database);
    const app = await buildApp({ config, database, logger: false });
    const worker = startWebhookWorker(database, config, app.log);
    const ws = await createWorkspace(database, {
      name: 'Lazy',
      ownerName: 'Owner',
      ownerEmail: 'o@example.com',
    });
    const headers = { authorization: `Bearer ${ws.token}`, 'content-type': 'application/json' };
    const team = await app.inject({ method: 'POST', url: '/v1/teams', headers, payload: '{"name":"Team"}' });
    assert.equal(team.statusCode, 201, team.body);
    const task = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers,
      payload: JSON.stringify({ name: 'A task', teamId: team.json().id, description: 'Some *Markdown*' }),
    });
    assert.equal(task.statusCode, 201, task.body);
    assert.equal(task.json().description.html, '<p>Some <em>Markdown</em></p>');
    await worker.stop();
    await app.close();
    assert.deepEqual(
      LAZY.filter((name) => resolved.has(name)),
      [],
    );
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
