// PostgreSQL: migration 0020 turns every id column from text into uuid. A database of schema 0019
// with a team, a project, tasks, a document, a comment and events is migrated: every id column is then
// uuid, every foreign key is back as it was, and the API answers exactly as before. A row whose id is
// not a UUID stops the migration before anything changes, naming the table, the column and the value.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { bootstrap } from '../modules/workspaces/service.ts';
import { client, eventsOfEntity, onPostgres, openTestDatabase } from '../test/helpers.ts';
import { type Database, openDatabase } from './index.ts';
import { migrateToLatest, migrateUpTo, migrationStatus } from './migrate.ts';

const skip = !onPostgres && 'PostgreSQL only';
const config = loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test', CAIRN_RATE_LIMIT: '1000000' });

async function app(database: Database, token: string) {
  const built = await buildApp({ config, database, logger: false });
  return { built, api: client(built, token) };
}

/** Each id column's type, and every foreign key's definition, of the test's schema. */
async function shape(database: Database) {
  const columns = await sql<{ column: string; type: string }>`
    select table_name || '.' || column_name as column, data_type as type from information_schema.columns
    where table_schema = current_schema() and (column_name = 'id' or column_name like '%\\_id')
      and column_name <> 'public_id' and table_name not like 'kysely%'
      and table_name <> 'task_terms' -- its id is a number of its own (migration 0011)
    order by 1`.execute(database.db);
  const keys = await sql<{ key: string }>`
    select conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) as key from pg_constraint
    where contype = 'f' and connamespace = current_schema()::regnamespace order by 1`.execute(database.db);
  return {
    types: [...new Set(columns.rows.map((c) => c.type))],
    columns: columns.rows.length,
    keys: keys.rows.map((k) => k.key),
  };
}

test('migration 0020 makes every id a uuid, keeps every key, and the API answers as before', {
  skip,
}, async () => {
  const { database, drop } = await openTestDatabase();
  after(drop);
  await migrateUpTo(database, '0019_task_words_live');
  const made = (await bootstrap(database, undefined))!;
  const old = await app(database, made.token);
  const { api } = old;
  const me = (await api.get('/v1/me')).body;
  const team = (await api.post('/v1/teams', { name: 'Upgrade' })).body;
  const project = (await api.post('/v1/projects', { name: 'Moving day', teamId: team.id })).body;
  const task = (
    await api.post('/v1/tasks', { name: 'Pack', teamId: team.id, projectId: project.id, assignedToId: me.id })
  ).body;
  const child = (await api.post('/v1/tasks', { name: 'Tape', teamId: team.id, description: 'boxes' })).body;
  assert.equal((await api.delete(`/v1/tasks/${child.id}`)).status, 204);
  const doc = (await api.post('/v1/documents', { name: 'Plan', teamId: team.id })).body;
  const post = await api.post('/v1/posts', { entityType: 'task', entityId: task.id, content: 'Started' });
  assert.equal(post.status, 201, JSON.stringify(post.body));
  const reads = [
    `/v1/tasks/${task.id}?expand=all`,
    `/v1/tasks/${task.publicId}?expand=all`,
    `/v1/tasks/search?teamId=${team.id}&includeDeleted=true`,
    `/v1/projects/${project.id}`,
    `/v1/documents/${doc.id}`,
    `/v1/posts/list?entityType=task&entityId=${task.id}`,
    `/v1/tasks/search?projectId=${project.id}`,
    `/v1/tasks/search?name=pack`,
    `/v1/events?entityId=${task.id}`,
  ];
  const read = async (via: typeof api) =>
    Promise.all(
      reads.map(async (url) => {
        const res = await via.get(url);
        assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
        // A cursor is sealed afresh on every answer (http/cursor.ts): compare that there is one.
        return typeof res.body.nextCursor === 'string' ? { ...res.body, nextCursor: 'a cursor' } : res.body;
      }),
    );
  // Once the task's create is in the feed, both reads see the same events.
  await eventsOfEntity(api, task.id);
  const before = await read(api);
  const was = await shape(database);
  assert.deepEqual(was.types, ['text']);
  await old.built.close();

  assert.deepEqual((await migrateToLatest(database)).applied, ['0020_uuid_ids']);
  const now = await shape(database);
  assert.deepEqual(now, { ...was, types: ['uuid'] });

  // A new process, as after a restart: its connections prepare their statements on the new types.
  const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db))
    .rows[0]!;
  const upgraded = openDatabase(process.env.TEST_POSTGRES_URL!, { schema, poolSize: 2 });
  const fresh = await app(upgraded, made.token);
  after(async () => {
    await fresh.built.close();
    await upgraded.close();
  });
  assert.deepEqual(await read(fresh.api), before);
  const next = await fresh.api.post('/v1/tasks', { name: 'Unpack', teamId: team.id, projectId: project.id });
  assert.equal(next.status, 201, JSON.stringify(next.body));
  assert.equal(next.body.publicId, task.publicId + 2);
});

test('migration 0020 names a row whose id is not a UUID, and changes nothing', { skip }, async () => {
  const { database, drop } = await openTestDatabase();
  after(drop);
  await migrateUpTo(database, '0019_task_words_live');
  await bootstrap(database, undefined);
  const at = '2026-01-05T09:00:00.000Z';
  await sql`insert into workspaces (id, code, name, created_at, updated_at)
    values ('legacy-1', 99, 'Imported long ago', ${at}, ${at})`.execute(database.db);
  await assert.rejects(migrateToLatest(database), {
    message:
      'migration 0020_uuid_ids failed: migration 0020 turns ids into uuid, but workspaces.id holds "legacy-1", ' +
      'which is not a lower-case UUID: correct or remove that row, then migrate again',
  });
  assert.deepEqual((await migrationStatus(database)).pending, ['0020_uuid_ids']);
  assert.deepEqual((await shape(database)).types, ['text']);
});
