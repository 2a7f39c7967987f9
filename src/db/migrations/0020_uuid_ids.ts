// PostgreSQL: every id column becomes `uuid` (16 bytes) instead of `text collate "C"` (37 bytes, with
// its length header): on the bench's 100,000 tasks the tasks' heap shrank by 14 % and their indexes by
// 41 % (docs/performance.md, "Ids as uuid"). SQLite keeps text, which it stores as compactly as it can.
//
// Nothing else changes for the code: the driver reads a uuid back as the same lower-case text, `uuid`
// orders by its bytes as the "C" collation ordered the text (cursors and tie-breaks keep their order),
// and every id a request names is checked to be a plain UUID before any query binds it (http/ids.ts,
// the `Uuid` schema and validation.ts's `uuid` format), where PostgreSQL would refuse a malformed one
// with an error.
//
// A foreign key needs both of its sides of one type, so the keys are dropped, every column changed
// (one rewrite of each table, its indexes rebuilt), and the keys added back as they were, checked
// again. Pending migrations run in one transaction, so every table stays locked to the end: the time
// is in CHANGELOG.md's upgrade notes. Processes of an older version cannot run through it (their
// prepared statements bind ids as text): it is one of migrate.ts's OFFLINE_MIGRATIONS.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

/** The id columns of schema 0019: the ones declared with ddl.ts's `id` type. */
const ID_COLUMNS: Record<string, string[]> = {
  workspaces: ['id'],
  users: ['workspace_id', 'id'],
  api_tokens: ['workspace_id', 'id', 'user_id'],
  sessions: ['workspace_id', 'id', 'user_id'],
  password_tokens: ['workspace_id', 'id', 'user_id', 'created_by_id'],
  invitations: ['workspace_id', 'id', 'created_by_id', 'accepted_user_id'],
  idempotency_keys: ['token_id'],
  counters: ['workspace_id'],
  groups: ['workspace_id', 'id', 'created_by_id'],
  group_members: ['workspace_id', 'group_id', 'user_id'],
  task_statuses: ['workspace_id', 'id', 'group_id'],
  task_labels: ['workspace_id', 'id', 'group_id'],
  project_statuses: ['workspace_id', 'id'],
  collections: ['workspace_id', 'id', 'created_by_id'],
  projects: ['workspace_id', 'id', 'owner_id', 'collection_id', 'status_id', 'created_by_id'],
  project_teams: ['workspace_id', 'project_id', 'group_id'],
  tasks: [
    'workspace_id',
    'id',
    'created_by_id',
    'project_id',
    'group_id',
    'status_id',
    'assigned_to_id',
    'repeat_id',
  ],
  task_label_links: ['workspace_id', 'task_id', 'label_id'],
  task_templates: [
    'workspace_id',
    'id',
    'status_id',
    'assigned_to_id',
    'project_id',
    'group_id',
    'scope_id',
    'parent_task_template_id',
    'created_by_id',
  ],
  task_template_labels: ['workspace_id', 'template_id', 'label_id'],
  project_templates: ['workspace_id', 'id', 'owned_by_area_id', 'owner_id', 'created_by_id', 'deleted_by_id'],
  project_template_areas: ['workspace_id', 'template_id', 'group_id'],
  documents: ['workspace_id', 'id', 'group_id', 'created_by_id', 'last_edited_by_id', 'deleted_by_id'],
  posts: ['workspace_id', 'id', 'entity_id', 'parent_id', 'owner_id'],
  post_reactions: ['workspace_id', 'id', 'post_id', 'user_id'],
  post_images: ['workspace_id', 'id', 'post_id'],
  events: ['workspace_id', 'id', 'entity_id', 'actor_id'],
  webhook_subscriptions: ['workspace_id', 'id', 'created_by_id'],
  webhook_deliveries: ['workspace_id', 'id', 'subscription_id', 'event_id'],
  webhook_replays: ['workspace_id', 'id', 'subscription_id', 'event_id'],
};

const UUID_TEXT = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await refuseOtherIds(db);
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  const keys = await sql<ForeignKey>`
    select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
    from pg_constraint where contype = 'f' and connamespace = current_schema()::regnamespace
    order by conrelid::regclass::text, conname`.execute(db);
  for (const key of keys.rows) {
    await sql`alter table ${sql.raw(key.table)} drop constraint ${sql.id(key.name)}`.execute(db);
  }
  for (const [table, columns] of Object.entries(ID_COLUMNS)) {
    const changes = columns.map((c) => sql`alter column ${sql.id(c)} type uuid using ${sql.id(c)}::uuid`);
    await sql`alter table ${sql.id(table)} ${sql.join(changes)}`.execute(db);
  }
  for (const key of keys.rows) {
    await sql`alter table ${sql.raw(key.table)} add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(
      db,
    );
  }
  for (const table of Object.keys(ID_COLUMNS)) await sql`analyze ${sql.id(table)}`.execute(db);
}

/** A value that is not a UUID would fail the cast with no word of where it is: name it first. */
async function refuseOtherIds(db: Kysely<unknown>): Promise<void> {
  for (const [table, columns] of Object.entries(ID_COLUMNS)) {
    const tests = columns.map(
      (c) =>
        sql`select ${c} as column, ${sql.id(c)} as value from ${sql.id(table)} where ${sql.id(c)} !~ ${UUID_TEXT}`,
    );
    const found = await sql<{
      column: string;
      value: string;
    }>`${sql.join(tests, sql` union all `)} limit 1`.execute(db);
    const bad = found.rows[0];
    if (bad) {
      throw new Error(
        `migration 0020 turns ids into uuid, but ${table}.${bad.column} holds ${JSON.stringify(bad.value)}, ` +
          'which is not a lower-case UUID: correct or remove that row, then migrate again',
      );
    }
  }
}
