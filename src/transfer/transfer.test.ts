// Export and import: a workspace with every kind of row (deleted, archived, private, templates, posts
// with reactions and images, subscriptions with undelivered events) moved to the other database
// (SQLite → PostgreSQL on the SQLite pass when PostgreSQL is at hand, PostgreSQL → SQLite on the
// PostgreSQL pass), then read through the API there.
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { distinctWords } from '../db/search/fold.ts';
import { createWorkspace } from '../modules/workspaces/service.ts';
import { onPostgres, openTestDatabase, type Response, setup } from '../test/helpers.ts';
import { taskWordsAgainstVectors } from '../test/task-words.ts';
import { exportData } from './export.ts';
import { ImportError, importData } from './import.ts';
import { NOT_EXPORTED, TABLES, tablesOf } from './tables.ts';

const f = await setup(undefined, { CAIRN_WEBHOOK_WORKER: 'false', CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const other = await f.newWorkspace('Other');
await other.owner.post('/v1/tasks', {
  name: 'Elsewhere',
  teamId: (await other.owner.post('/v1/teams', { name: 'T' })).body.id,
});

// --- a workspace with one of everything --------------------------------------------------------
const member = await f.newUser('member', 'Mia Member');
/** A setup call that must succeed: its body. */
async function made(res: Promise<Response> | Response, status = 201) {
  const r = await res;
  assert.equal(r.status, status, JSON.stringify(r.body));
  return r.body;
}
const eng = await made(f.owner.post('/v1/teams', { name: 'Engineering', members: [{ id: member.id }] }));
const vault = await made(f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private' }));
const area = await made(f.owner.post('/v1/areas', { name: 'Marketing', publicId: 'MKT' }));
const labels = (await made(f.owner.get(`/v1/teams/${eng.id}?expand=taskLabels`), 200)).taskLabels;
const project = await made(f.owner.post('/v1/projects?expand=none', { name: 'Roadmap', teamId: eng.id }));
const shelved = await made(
  f.owner.post('/v1/projects?expand=none', { name: 'Shelved idea', teamId: eng.id }),
);
await made(f.owner.post(`/v1/projects/${shelved.id}/archive`), 200);
await made(
  f.owner.post('/v1/webhooks/subscribe', { hookUrl: 'http://127.0.0.1:9/created', event: 'task.created' }),
);
const tasks: { id: string }[] = [];
for (let i = 0; i < 30; i++) {
  tasks.push(
    await made(
      f.owner.post('/v1/tasks?expand=none', {
        name: `Quarterly zeppelin review ${i}`,
        description: `<p>Check the <b>ballast</b> number ${i}</p>`,
        teamId: i % 3 === 0 ? vault.id : eng.id,
        ...(i % 5 === 0 ? { projectId: project.id } : {}),
        ...(i === 1 && labels.length > 0 ? { labelIds: [labels[0].id] } : {}),
      }),
    ),
  );
}
await made(
  f.owner.post('/v1/webhooks/subscribe', { hookUrl: 'http://127.0.0.1:9/updated', event: 'task.updated' }),
);
await made(f.owner.delete(`/v1/tasks/${tasks[2]!.id}`), 204);
await made(f.owner.post('/v1/tasks?expand=none', { id: tasks[4]!.id, name: 'Renamed zeppelin' }), 200);
const doc = await made(f.owner.post('/v1/documents', { name: 'Airship handbook', teamId: eng.id }));
const gone = await made(f.owner.post('/v1/documents', { name: 'Old handbook', teamId: eng.id }));
await made(f.owner.delete(`/v1/documents/${gone.id}`), 204);
const post = await made(
  f.owner.post('/v1/posts', {
    entityType: 'task',
    entityId: tasks[1]!.id,
    content: 'Looks good',
    images: [{ url: 'https://cdn.example.com/a.png', width: 10, height: 20 }],
  }),
);
await made(member.api.post(`/v1/posts/${post.id}/reactions`, { reaction: 'thumbsup' }));
await made(
  f.owner.post('/v1/posts', {
    entityType: 'task',
    entityId: tasks[1]!.id,
    parentId: post.id,
    content: 'Thanks',
  }),
);
await made(f.owner.post('/v1/posts', { entityType: 'document', entityId: doc.id, content: 'Read this' }));
await made(f.owner.post('/v1/task-templates', { name: 'Weekly check', areaId: area.id }));
await made(
  f.owner.post('/v1/project-templates', { name: 'Launch', ownedByAreaId: area.id, areaIds: [area.id] }),
);

async function exported(database: Database, workspaceId?: string): Promise<string[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportData(database, out, { workspaceId });
  out.end();
  return Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
}

/** The rows of an export, sorted: two exports of the same data are equal whatever wrote them. */
const rowsOf = (lines: string[]) => lines.slice(1).sort();

const text = (lines: string[]) => Readable.from([`${lines.join('\n')}\n`]);

async function fresh(dialect: 'sqlite' | 'postgres') {
  const target = await openTestDatabase(dialect);
  after(() => target.drop());
  await migrateToLatest(target.database);
  return target.database;
}

/** Every index and constraint of a database, as its catalog defines them. */
async function schemaOf(database: Database): Promise<string[]> {
  if (database.dialect === 'sqlite') {
    const rows = await sql<{
      sql: string;
    }>`select sql from sqlite_schema where sql is not null and name not like 'sqlite_stat%' order by name`.execute(
      database.db,
    );
    return rows.rows.map((r) => r.sql);
  }
  // Triggers with whether each is on (the import turns the words trigger off while it loads tasks).
  const rows = await sql<{
    def: string;
  }>`select replace(indexdef, current_schema() || '.', '') as def from pg_indexes where schemaname = current_schema()
    union all select conname || ' ' || pg_get_constraintdef(k.oid) from pg_constraint k
    join pg_namespace n on n.oid = k.connamespace where n.nspname = current_schema()
    union all select 'trigger ' || tgname || ' ' || tgenabled::text from pg_trigger g
    join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not g.tgisinternal order by 1`.execute(database.db);
  return rows.rows.map((r) => r.def);
}

const targetDialect = onPostgres ? 'sqlite' : process.env.TEST_POSTGRES_URL ? 'postgres' : 'sqlite';
const source = await exported(f.database);

describe(`export → import into ${targetDialect}`, async () => {
  const target = await fresh(targetDialect);
  const said: string[] = [];
  const imported = await importData(target, text(source), { progress: (line) => said.push(line) });

  test('the steps after the rows say when they start and how long they took', () => {
    // Timings vary; the lines, in their order, do not.
    const steps = said
      .filter((l) => / …$|: done in \d+\.\d s$/.test(l))
      .map((l) => l.replace(/\d+\.\d s$/, 'N s'));
    const indexes = steps[0]!.match(
      /^import: (building \d+ indexes( and checking \d+ foreign keys)?) …$/,
    )?.[1];
    assert.ok(indexes, steps[0]);
    assert.equal(/foreign keys/.test(indexes), targetDialect === 'postgres');
    const words = "filling the task search's words tables";
    assert.deepEqual(steps, [
      `import: ${indexes} …`,
      `import: ${indexes}: done in N s`,
      ...(targetDialect === 'postgres' ? [`import: ${words} …`, `import: ${words}: done in N s`] : []),
      'import: statistics of the new rows …',
      'import: statistics of the new rows: done in N s',
    ]);
  });

  test('every row arrives, and exporting again gives the same rows', async () => {
    assert.deepEqual(imported.imported.sort(), [f.ws.workspace.id, other.ws.workspace.id].sort());
    assert.equal(imported.rows, source.length - 2);
    const header = JSON.parse(source[0]!);
    assert.deepEqual(Object.keys(header).sort(), ['exportedAt', 'format', 'schema', 'version', 'workspaces']);
    assert.deepEqual(JSON.parse(source.at(-1)!), { end: true, rows: source.length - 2 });
    const tables = new Set(source.slice(1, -1).map((l) => JSON.parse(l).table));
    for (const t of ['tasks', 'documents', 'posts', 'post_images', 'post_reactions', 'task_templates']) {
      assert.ok(tables.has(t), `the export holds ${t}`);
    }
    for (const t of ['project_templates', 'project_template_areas', 'webhook_subscriptions', 'events']) {
      assert.ok(tables.has(t), `the export holds ${t}`);
    }
    assert.deepEqual(rowsOf(await exported(target)), rowsOf(source));
    // The indexes and keys the import put aside while it wrote are all back.
    assert.deepEqual(await schemaOf(target), await schemaOf(await fresh(targetDialect)));
  });

  test('the API reads the same from the imported database, search and tokens included', async () => {
    const app = await buildApp({
      config: loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test', CAIRN_WEBHOOK_WORKER: 'false' }),
      database: target,
      logger: false,
    });
    after(() => app.close());
    const paths = [
      '/v1/tasks/search?limit=100&includeDeleted=true',
      `/v1/tasks/${tasks[1]!.id}?expand=all`,
      '/v1/tasks/search?name=zeppelin&limit=100',
      '/v1/tasks/search?description=ballast&limit=5',
      '/v1/projects/list?limit=100&includeArchived=true',
      '/v1/projects/search?name=roadmap',
      '/v1/documents/search?includeDeleted=true',
      '/v1/documents/search?name=airship',
      '/v1/teams/search?name=vault',
      `/v1/posts/${post.id}?expand=all`,
      '/v1/task-templates',
      '/v1/project-templates',
      '/v1/webhooks/subscribe',
      '/v1/users',
    ];
    for (const path of paths) {
      const before = await f.owner.get(path);
      const res = await app.inject({
        method: 'GET',
        url: path,
        headers: { authorization: `Bearer ${f.ws.token}` },
      });
      assert.equal(res.statusCode, before.status, path);
      assert.equal(before.status, 200, `${path}: ${JSON.stringify(before.body)}`);
      // Cursors are signed with the installation's own secret, which stays behind (tables.ts).
      const { nextCursor: _a, ...now } = res.json();
      const { nextCursor: _b, ...was } = before.body;
      assert.deepEqual(now, was, path);
    }
    const found = await app.inject({
      method: 'GET',
      url: '/v1/tasks/search?name=zeppelin&limit=100',
      headers: { authorization: `Bearer ${f.ws.token}` },
    });
    assert.equal(found.json().data.length, 29, 'every live task is found by a word of its name');
  });

  test('PostgreSQL: the vectors copied in are those the API itself writes', async (t) => {
    if (target.dialect !== 'postgres') return t.skip('the target is SQLite');
    let compared = 0;
    for (const table of TABLES) {
      const index = table.index;
      if (!index || index.target.table !== table.name) continue;
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(
        target.db,
      );
      for (const row of rows.rows) {
        const texts = index.texts(row as never);
        for (const field of index.target.fields) {
          const same = await sql<{ same: boolean }>`select ${sql.ref(`${field}_tsv`)} =
            array_to_tsvector(${distinctWords(texts[field])}::text[]) as same
            from ${sql.table(table.name)} where workspace_id = ${row.workspace_id} and id = ${row.id}`.execute(
            target.db,
          );
          assert.equal(same.rows[0]?.same, true, `${table.name}.${field}_tsv of ${row.id}`);
          compared += 1;
        }
      }
    }
    assert.ok(compared > 60, `${compared} vectors compared`);
    // The words tables, filled once at the end (task-words.ts), hold each task's words exactly.
    const words = await taskWordsAgainstVectors(target.db);
    assert.deepEqual({ ...words, stored: 0 }, { missing: 0, extra: 0, stored: 0 });
    assert.ok(words.stored > 100, `${words.stored} words stored`);
  });

  test('subscriptions keep their place: the same events are still to be delivered', async () => {
    const pending = async (database: Database) => {
      const subs = await database.db
        .selectFrom('webhook_subscriptions')
        .select(['id', 'cursor_tx', 'cursor_seq'])
        .where('workspace_id', '=', f.ws.workspace.id)
        .orderBy('id')
        .execute();
      const out: Record<string, string[]> = {};
      for (const s of subs) {
        const rows = await database.db
          .selectFrom('events')
          .select('id')
          .where('workspace_id', '=', f.ws.workspace.id)
          .where((eb) =>
            database.dialect === 'postgres'
              ? eb(eb.refTuple('tx', 'seq'), '>', eb.tuple(Number(s.cursor_tx), Number(s.cursor_seq)))
              : eb('seq', '>', Number(s.cursor_seq)),
          )
          .orderBy('tx')
          .orderBy('seq')
          .execute();
        out[s.id] = rows.map((r) => r.id);
      }
      return out;
    };
    const was = await pending(f.database);
    assert.equal(Object.keys(was).length, 2);
    assert.ok(Object.values(was).every((ids) => ids.length > 0));
    assert.deepEqual(await pending(target), was);
    if (target.dialect === 'sqlite') {
      const tx = await target.db.selectFrom('events').select('tx').where('tx', '!=', 0).execute();
      assert.deepEqual(tx, [], 'SQLite events keep tx 0 (events/stream.ts reads by seq alone)');
    }
  });

  test('a second run changes nothing and says each workspace was skipped', async () => {
    const before = await exported(target);
    const againSaid: string[] = [];
    const again = await importData(target, text(source), { progress: (line) => againSaid.push(line) });
    assert.deepEqual(again.imported, []);
    assert.deepEqual(again.skipped.sort(), [f.ws.workspace.id, other.ws.workspace.id].sort());
    assert.equal(again.rows, 0);
    assert.deepEqual(rowsOf(await exported(target)), rowsOf(before));
    // No rows, so no words to fill and no statistics to take (tables still empty keep their indexes
    // put aside and made again, which is all the run says besides the skipped workspaces).
    assert.deepEqual(
      againSaid.filter(
        (l) =>
          l.endsWith(' …') && !/^import: building \d+ indexes( and checking \d+ foreign keys)? …$/.test(l),
      ),
      [],
    );
    assert.ok(againSaid.some((l) => l.endsWith('already in this database: skipped')));
  });
});

describe('a file that cannot be trusted is refused, and nothing is imported', async () => {
  const target = await fresh(targetDialect);
  const refused = async (lines: string[], message: RegExp) => {
    await assert.rejects(importData(target, text(lines)), (e: Error) => {
      assert.ok(e instanceof ImportError, e.message);
      assert.match(e.message, message);
      return true;
    });
    const left = await target.db.selectFrom('workspaces').select('id').execute();
    assert.deepEqual(left, []);
  };

  test('cut short: without its end line, or mid-line', async () => {
    await refused(source.slice(0, -1), /cut short/);
    await refused(source.slice(0, source.length - 5), /cut short/);
    const last = source.length - 2;
    await refused([...source.slice(0, last), source[last]!.slice(0, 20)], /not JSON/);
  });

  test('a row whose reference leads nowhere; the indexes and keys put aside meanwhile are back', async () => {
    const before = await schemaOf(target);
    const at = source.findIndex((l) => l.startsWith('{"table":"tasks"'));
    const line = JSON.parse(source[at]!);
    line.row.group_id = '00000000-0000-4000-8000-000000000000';
    const lines = [...source];
    lines[at] = JSON.stringify(line);
    await refused(lines, /foreign key/i);
    assert.deepEqual(await schemaOf(target), before);
  });

  test('an end line whose count does not match', async () => {
    const counter = source.findIndex((l) => l.startsWith('{"table":"counters"'));
    await refused([...source.slice(0, counter), ...source.slice(counter + 1)], /the end line counts/);
  });

  test('another schema: newer, older, or not an export at all', async () => {
    const header = JSON.parse(source[0]!);
    await refused(
      [JSON.stringify({ ...header, schema: '9999_future' }), ...source.slice(1)],
      /newer than this Cairn/,
    );
    await refused(
      [JSON.stringify({ ...header, schema: '0007_webhooks' }), ...source.slice(1)],
      /older than this database's/,
    );
    await refused(['{"hello":"world"}', ...source.slice(1)], /not a Cairn export header/);
    await refused(
      [JSON.stringify({ ...header, workspaces: [header.workspaces[0]] }), ...source.slice(1)],
      /not the ones its header names/,
    );
  });

  test('rows out of their workspace or table order', async () => {
    // A task of the first workspace, put between its workspace row and its users.
    const tasksAt = source.findIndex((l) => l.startsWith('{"table":"tasks"'));
    const owner = JSON.parse(source[tasksAt]!).row.workspace_id;
    const wsAt = source.findIndex((l) => l.startsWith('{"table":"workspaces"') && l.includes(owner));
    const moved = [...source];
    moved.splice(wsAt + 1, 0, source[tasksAt]!);
    await refused(moved, /users after tasks, out of order/);
    const stray = [...source];
    stray.splice(1, 0, source[tasksAt]!);
    await refused(stray, /outside its workspace's part/);
  });
});

test('a workspace code already taken here is renumbered, and its tasks are still found', async () => {
  const target = await fresh(targetDialect);
  const here = await createWorkspace(target, { name: 'Here', ownerName: 'H', ownerEmail: 'h@here.test' });
  const codeOf = async (id: string) =>
    Number(
      (await target.db.selectFrom('workspaces').select('code').where('id', '=', id).executeTakeFirstOrThrow())
        .code,
    );
  const before = await codeOf(here.workspace.id);
  const exported = source
    .slice(1, -1)
    .map((l) => JSON.parse(l).row)
    .filter((r) => r.code !== undefined);
  assert.ok(
    exported.some((r) => Number(r.code) === before),
    'the file holds a workspace with the same code',
  );
  await importData(target, text(source));
  const codes = await target.db.selectFrom('workspaces').select(['id', 'code']).execute();
  assert.equal(new Set(codes.map((c) => Number(c.code))).size, 3, 'every workspace a code of its own');
  assert.equal(await codeOf(here.workspace.id), before);
  const app = await buildApp({
    config: loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test' }),
    database: target,
    logger: false,
  });
  after(() => app.close());
  const found = await app.inject({
    method: 'GET',
    url: '/v1/tasks/search?name=zeppelin&limit=100',
    headers: { authorization: `Bearer ${f.ws.token}` },
  });
  assert.equal(found.json().data.length, 29);
});

test('an export of one workspace holds its rows only', async () => {
  const lines = await exported(f.database, other.ws.workspace.id);
  const rows = lines.slice(1, -1).map((l) => JSON.parse(l).row);
  assert.ok(rows.length > 3);
  for (const row of rows) assert.equal(row.workspace_id ?? row.id, other.ws.workspace.id);
  assert.deepEqual(JSON.parse(lines[0]!).workspaces, [other.ws.workspace.id]);
});

test('every table is either exported or named as staying behind', async () => {
  const known = new Set<string>([...TABLES.map((t) => t.name), ...NOT_EXPORTED]);
  const all = await tablesOf(f.database.db, f.database.dialect);
  // SQLite's FTS5 tables and their shadow tables are search indexes, rebuilt on import.
  const unlisted = all.filter((t) => !known.has(t) && !/_fts(_|$)/.test(t));
  assert.deepEqual(unlisted, []);
});
