// A database that is away, slow or full gives 503 with Retry-After and a failing /readyz, never a hang,
// and the server recovers by itself when it answers again. PostgreSQL is reached through a TCP proxy
// the test can cut; SQLite's case is a write lock held elsewhere past the busy timeout.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { App } from '../http/app-type.ts';
import { startWebhookWorker } from '../modules/webhooks/worker.ts';
import { createWorkspace } from '../modules/workspaces/service.ts';
import { client, onPostgres, problem, setup } from '../test/helpers.ts';
import { startReceiver } from '../test/receiver.ts';
import { openDatabase } from './index.ts';
import { migrateToLatest } from './migrate.ts';

/** Forwards to PostgreSQL while `open`; otherwise holds connections without a byte (a dead network). */
class TcpProxy {
  open = true;
  readonly sockets = new Set<Socket>();
  readonly server: Server;
  constructor(target: URL) {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
      if (!this.open) return; // a black hole: accepted, never answered
      const upstream = new Socket();
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      upstream.connect(Number(target.port || 5432), target.hostname, () => {
        socket.pipe(upstream).pipe(socket);
      });
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
    });
  }
  /** Cuts every connection and answers no new one. */
  cut(): void {
    this.open = false;
    for (const s of this.sockets) s.destroy();
  }
}

const timed = async <T>(run: () => Promise<T>) => {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
};

if (onPostgres) {
  const url = new URL(process.env.TEST_POSTGRES_URL!);
  const schema = `cairn_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url.href });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const direct = openDatabase(url.href, { schema, poolSize: 2 });
  await migrateToLatest(direct);
  const ws = await createWorkspace(direct, { name: 'Acme', ownerName: 'Olive', ownerEmail: 'o@acme.test' });

  const proxy = new TcpProxy(url);
  await new Promise<void>((r) => proxy.server.listen(0, '127.0.0.1', r));
  const port = (proxy.server.address() as { port: number }).port;
  const viaProxy = new URL(url.href);
  viaProxy.host = `127.0.0.1:${port}`;
  const database = openDatabase(viaProxy.href, {
    schema,
    poolSize: 2,
    connectTimeoutMs: 500,
    statementTimeoutMs: 1000,
  });
  const app: App = await buildApp({
    config: loadConfig({
      CAIRN_PUBLIC_URL: 'http://cairn.test',
      CAIRN_RATE_LIMIT: '1000000',
      CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true',
    }),
    database,
    logger: false,
  });
  after(async () => {
    await app.close();
    await database.close();
    proxy.server.close();
    for (const s of proxy.sockets) s.destroy();
    await direct.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });
  const owner = client(app, ws.token);
  const team = (await owner.post('/v1/teams', { name: 'Ops' })).body;
  const task = (await owner.post('/v1/tasks?expand=none', { name: 'Locked', teamId: team.id })).body;

  describe('PostgreSQL away, slow or full', () => {
    test('the database away: 503 unavailable with Retry-After within the connect timeout, /readyz 503', async () => {
      proxy.cut();
      const { value: res, ms } = await timed(() =>
        owner.post('/v1/tasks?expand=none', { name: 'Lost', teamId: team.id }),
      );
      const body = problem(res, 503, 'unavailable');
      assert.equal(res.headers['retry-after'], '5');
      assert.match(body.detail, /nothing was changed/);
      assert.ok(ms < 3000, `answered in ${ms} ms`);
      const ready = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
      assert.equal(ready.value.statusCode, 503);
      assert.equal(ready.value.headers['retry-after'], '5');
      assert.deepEqual(ready.value.json(), { status: 'unavailable' });
      assert.ok(ready.ms < 2600, `readyz answered in ${ready.ms} ms`);
    });

    test('back again: the same server answers, with no restart, and the failed create never happened', async () => {
      proxy.open = true;
      let res = await owner.get('/v1/users');
      for (let i = 0; i < 5 && res.status === 503; i++) res = await owner.get('/v1/users');
      assert.equal(res.status, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      const found = await direct.db.selectFrom('tasks').select('name').where('name', '=', 'Lost').execute();
      assert.deepEqual(found, []);
    });

    test('webhook delivery survives the outage and resumes when the database is back', async () => {
      const receiver = await startReceiver();
      after(() => receiver.close());
      const quiet = pino({ level: 'silent' });
      const config = loadConfig({
        CAIRN_PUBLIC_URL: 'http://cairn.test',
        CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      const sub = await owner.post('/v1/webhooks/subscribe', {
        hookUrl: `${receiver.base}/back`,
        event: 'task.created',
      });
      assert.equal(sub.status, 201, JSON.stringify(sub.body));
      const worker = startWebhookWorker(database, config, quiet);
      try {
        proxy.cut();
        // The worker's claims and its LISTEN connection fail for a while; the process stays up.
        await new Promise((r) => setTimeout(r, 1500));
        proxy.open = true;
        let made = await owner.post('/v1/tasks?expand=none', { name: 'After the outage', teamId: team.id });
        for (let i = 0; i < 5 && made.status === 503; i++) {
          made = await owner.post('/v1/tasks?expand=none', { name: 'After the outage', teamId: team.id });
        }
        const [delivery] = await receiver.waitFor('/back', 1, 15_000);
        assert.equal(delivery!.json.data.id, made.body.id);
      } finally {
        await worker.stop();
      }
    });

    test('a statement over the statement timeout: 503, and the row is unchanged', async () => {
      await admin.query('begin');
      await admin.query(`select * from ${schema}.tasks where id = $1 for update`, [task.id]);
      try {
        const { value: res, ms } = await timed(() =>
          owner.post('/v1/tasks?expand=none', { id: task.id, name: 'Renamed' }),
        );
        problem(res, 503, 'unavailable');
        assert.ok(ms >= 900 && ms < 4000, `cancelled after ${ms} ms`);
      } finally {
        await admin.query('rollback');
      }
      const row = await direct.db
        .selectFrom('tasks')
        .select('name')
        .where('id', '=', task.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.name, 'Locked');
    });

    test('the pool exhausted: a request waits the connect timeout for a connection, then 503', async () => {
      await admin.query('begin');
      await admin.query(`select * from ${schema}.tasks where id = $1 for update`, [task.id]);
      try {
        // Two updates hold both connections of the pool, waiting on the lock; the third gets none.
        const held = [1, 2].map((n) =>
          owner.post('/v1/tasks?expand=none', { id: task.id, name: `Held ${n}` }),
        );
        await new Promise((r) => setTimeout(r, 100));
        const { value: res, ms } = await timed(() => owner.get(`/v1/tasks/${task.id}`));
        problem(res, 503, 'unavailable');
        assert.ok(ms >= 400 && ms < 1000, `gave up after ${ms} ms`);
        for (const r of await Promise.all(held)) problem(r, 503, 'unavailable');
      } finally {
        await admin.query('rollback');
      }
      assert.equal((await owner.get(`/v1/tasks/${task.id}`)).status, 200);
    });
  });
} else {
  const f = await setup('sqlite');
  const path = f.database.description.slice('sqlite:'.length);
  const team = (await f.owner.post('/v1/teams', { name: 'Ops' })).body;

  test('SQLite locked by another writer past the busy timeout: 503 unavailable, then it recovers', async () => {
    const other = new DatabaseSync(path);
    other.exec('begin immediate');
    try {
      const { value: res, ms } = await timed(() =>
        f.owner.post('/v1/tasks?expand=none', { name: 'Waits', teamId: team.id }),
      );
      problem(res, 503, 'unavailable');
      assert.equal(res.headers['retry-after'], '5');
      assert.ok(ms >= 4500, `gave up after ${ms} ms, the busy timeout being 5 s`);
    } finally {
      other.exec('rollback');
      other.close();
    }
    const res = await f.owner.post('/v1/tasks?expand=none', { name: 'Waits', teamId: team.id });
    assert.equal(res.status, 201);
  });
}
