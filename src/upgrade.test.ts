// Upgrading from the oldest schema (docs/deployment.md "Upgrades"): a database made by migration 0001
// alone and filled the way that version wrote its rows, migrated through every later migration, then
// served by this version. On PostgreSQL a reader of the old tables keeps asking while the upgrade
// runs, as a process of the previous version would: it may wait, never fail (until a migration that
// needs the older processes stopped first).
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { MIGRATION_NAMES, migrateToLatest, migrateUpTo, OFFLINE_MIGRATIONS } from './db/migrate.ts';
import { GROUP_TARGET } from './modules/groups/repository.ts';
import { USER_TARGET } from './modules/users/repository.ts';
import { client, onPostgres, openTestDatabase } from './test/helpers.ts';

const { database, drop } = await openTestDatabase();
after(drop);
const db = database.db;
const at = '2026-01-05T09:00:00.000Z';
const ws = randomUUID();
const owner = randomUUID();
const team = randomUUID();
const token = `cairn_${randomBytes(32).toString('base64url')}`;

/** Rows as the first version wrote them, in its tables' own columns. */
async function seedOldestSchema(): Promise<void> {
  await sql`insert into workspaces (id, code, name, created_at, updated_at) values (${ws}, 1, 'Old Acme', ${at}, ${at})`.execute(
    db,
  );
  await sql`insert into users (workspace_id, id, name, email, role, created_at, updated_at)
    values (${ws}, ${owner}, 'Olga Oldtimer', 'olga@old.test', 'owner', ${at}, ${at})`.execute(db);
  const hash = createHash('sha256').update(token).digest('hex');
  await sql`insert into api_tokens (workspace_id, id, user_id, name, token_hash, created_at)
    values (${ws}, ${randomUUID()}, ${owner}, 'old', ${hash}, ${at})`.execute(db);
  await sql`insert into groups (workspace_id, id, kind, name, public_id, privacy, created_by_id, created_at, updated_at)
    values (${ws}, ${team}, 'team', 'Engineering', 'ENG', 'workspace', ${owner}, ${at}, ${at})`.execute(db);
  await sql`insert into group_members (workspace_id, group_id, user_id, role, created_at)
    values (${ws}, ${team}, ${owner}, 'owner', ${at})`.execute(db);
  const stages = ['backlog', 'unstarted', 'started', 'completed', 'canceled'];
  for (const [position, stage] of stages.entries()) {
    await sql`insert into task_statuses (workspace_id, id, group_id, name, stage, color, position, created_at, updated_at)
      values (${ws}, ${randomUUID()}, ${team}, ${`Old ${stage}`}, ${stage}, '#888888', ${position}, ${at}, ${at})`.execute(
      db,
    );
  }
  await sql`insert into task_labels (workspace_id, id, group_id, name, color, position, created_at, updated_at)
    values (${ws}, ${randomUUID()}, ${team}, 'legacy', '#ff0000', 0, ${at}, ${at})`.execute(db);
  await sql`insert into collections (workspace_id, id, name, created_by_id, created_at, updated_at)
    values (${ws}, ${randomUUID()}, 'Old things', ${owner}, ${at}, ${at})`.execute(db);
  // The text index of that version: users' and groups' names.
  for (const [target, table, id, name] of [
    [USER_TARGET, 'users', owner, 'Olga Oldtimer'],
    [GROUP_TARGET, 'groups', team, 'Engineering'],
  ] as const) {
    const { seq } = (
      await sql<{ seq: number }>`select seq from ${sql.table(table)} where id = ${id}`.execute(db)
    ).rows[0]!;
    await database.search.write(db, target, {
      row: { seq: Number(seq), workspaceId: ws, id },
      texts: { name },
    });
  }
}

/** What a process of the previous version keeps reading during the upgrade (PostgreSQL). */
function oldReader(): { stop(): Promise<{ reads: number; errors: string[]; longestMs: number }> } {
  let running = true;
  const result = { reads: 0, errors: [] as string[], longestMs: 0 };
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        await sql`select u.name, g.name from users u join groups g on g.workspace_id = u.workspace_id where u.id = ${owner}`.execute(
          db,
        );
        result.reads++;
      } catch (error) {
        result.errors.push((error as Error).message);
      }
      result.longestMs = Math.max(result.longestMs, Date.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return result;
    },
  };
}

test('a database of the oldest schema, filled, upgrades through every migration and serves', async (t) => {
  assert.deepEqual((await migrateUpTo(database, MIGRATION_NAMES[0]!)).applied, [MIGRATION_NAMES[0]]);
  await seedOldestSchema();

  // The reader runs through every migration an older process may run under, up to the first that
  // needs the older processes stopped (OFFLINE_MIGRATIONS), which then runs without it.
  const reader = onPostgres ? oldReader() : undefined;
  const offline = MIGRATION_NAMES.findIndex((name) => OFFLINE_MIGRATIONS.includes(name));
  const online = await migrateUpTo(database, MIGRATION_NAMES[offline - 1]!);
  const read = await reader?.stop();
  const { applied } = await migrateToLatest(database);
  assert.deepEqual([...online.applied, ...applied], MIGRATION_NAMES.slice(1));
  if (read) {
    assert.deepEqual(read.errors, [], 'a reader of the old tables waits, never fails');
    assert.ok(read.reads > 0);
    t.diagnostic(`old reader: ${read.reads} reads, the longest waited ${read.longestMs} ms`);
  }

  const app = await buildApp({
    config: loadConfig({ CAIRN_PUBLIC_URL: 'http://cairn.test', CAIRN_RATE_LIMIT: '1000000' }),
    database,
    logger: false,
  });
  after(() => app.close());
  const api = client(app, token);
  const me = await api.get('/v1/me');
  assert.equal(me.status, 200);
  assert.deepEqual(
    [me.body.name, me.body.role, me.body.workspace.name],
    ['Olga Oldtimer', 'owner', 'Old Acme'],
  );
  const found = await api.get('/v1/teams/search?name=engin');
  assert.deepEqual(
    found.body.data.map((t: { id: string; key?: string }) => t.id),
    [team],
  );
  const made = await api.post('/v1/tasks', {
    name: 'First task after the upgrade',
    teamId: team,
    assignedToId: owner,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal(made.body.publicId, 1);
  // A new task starts in the team's first unstarted status, as with any team.
  assert.equal(made.body.status.name, 'Old unstarted');
  // The old user's name is still in the text index: assigneeName finds through it.
  const searched = await api.get('/v1/tasks/search?name=upgrade&assigneeName=oldtimer');
  assert.deepEqual(
    searched.body.data.map((t: { id: string }) => t.id),
    [made.body.id],
  );
  const collections = await api.get('/v1/collections');
  assert.deepEqual(
    collections.body.data.map((c: { name: string }) => c.name),
    ['Old things'],
  );
});
