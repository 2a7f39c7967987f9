// PostgreSQL: migration 0019 rebuilds the words table of task search with each task's state (`live`)
// from the rows migration 0011's triggers kept. A database of schema 0018 with live and deleted tasks
// is migrated, and its words must then agree with every task's vectors and state, and its searches
// answer as before.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { bootstrap } from '../../modules/workspaces/service.ts';
import { client, onPostgres, openTestDatabase } from '../../test/helpers.ts';
import { taskWordsAgainstVectors } from '../../test/task-words.ts';
import { migrateUpTo } from '../migrate.ts';

test('migration 0019 marks the words of deleted tasks, and searches answer as before', {
  skip: !onPostgres && 'PostgreSQL only',
}, async () => {
  const { database, drop } = await openTestDatabase();
  after(drop);
  await migrateUpTo(database, '0018_events_by_entity');
  const made = await bootstrap(database, undefined);
  const app = await buildApp({
    config: loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test', CAIRN_RATE_LIMIT: '1000000' }),
    database,
    logger: false,
  });
  after(() => app.close());
  const api = client(app, made!.token);
  const team = (await api.post('/v1/teams', { name: 'Upgrade' })).body;
  const ids: string[] = [];
  for (const name of ['Comet one', 'Comet two', 'Comets three', 'Meteor four']) {
    const res = await api.post('/v1/tasks?expand=none', { name, teamId: team.id, description: 'comet dust' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids.push(res.body.id);
  }
  assert.equal((await api.delete(`/v1/tasks/${ids[1]}`)).status, 204);
  assert.equal((await api.delete(`/v1/tasks/${ids[3]}`)).status, 204);

  assert.deepEqual((await migrateUpTo(database, '0019_task_words_live')).applied, ['0019_task_words_live']);
  const { missing, extra, stored } = await taskWordsAgainstVectors(database.db);
  assert.deepEqual({ missing, extra }, { missing: 0, extra: 0 });
  assert.ok(stored > 0);

  const found = async (qs: string) =>
    (await api.get(`/v1/tasks/search?expand=none&${qs}`)).body.data.map((t: { id: string }) => t.id);
  assert.deepEqual(await found('name=comet'), [ids[2], ids[0]]);
  // Deleted tasks were changed last, so they are the newest.
  assert.deepEqual(await found('name=comet&includeDeleted=true'), [ids[1], ids[2], ids[0]]);
  assert.deepEqual(await found('description=comet&includeDeleted=true'), [ids[3], ids[1], ids[2], ids[0]]);
  assert.deepEqual(await found('name=meteor&description=dust'), []);
  assert.equal((await api.post(`/v1/tasks/${ids[3]}/restore`)).status, 200);
  assert.deepEqual(await found('name=meteor&description=dust'), [ids[3]]);
});
