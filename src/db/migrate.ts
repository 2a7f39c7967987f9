// Versioned, forward-only migrations, run at start and by `cairn migrate`. Kysely's Migrator records
// what has run in kysely_migration and, on PostgreSQL, holds an advisory lock so that several processes
// starting at once migrate exactly once.
import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { isUniqueViolation } from './errors.ts';
import type { Database, Dialect } from './index.ts';
import * as foundation from './migrations/0001_foundation.ts';
import * as projectsTasks from './migrations/0002_projects_tasks.ts';
import * as liveTaskLists from './migrations/0003_live_task_lists.ts';
import * as taskCounts from './migrations/0004_task_counts.ts';
import * as memberTaskCounts from './migrations/0005_member_task_counts.ts';
import * as documentsTemplates from './migrations/0006_documents_templates.ts';
import * as webhooks from './migrations/0007_webhooks.ts';
import * as idempotency from './migrations/0008_idempotency.ts';
import * as idempotencyCommits from './migrations/0009_idempotency_commits.ts';

type Up = (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;

// Names sort in the order they run. Append only; never edit one that has shipped.
const MIGRATIONS: Record<string, { up: Up }> = {
  '0001_foundation': foundation,
  '0002_projects_tasks': projectsTasks,
  '0003_live_task_lists': liveTaskLists,
  '0004_task_counts': taskCounts,
  '0005_member_task_counts': memberTaskCounts,
  '0006_documents_templates': documentsTemplates,
  '0007_webhooks': webhooks,
  '0008_idempotency': idempotency,
  '0009_idempotency_commits': idempotencyCommits,
};

class Provider implements MigrationProvider {
  readonly #dialect: Dialect;
  constructor(dialect: Dialect) {
    this.#dialect = dialect;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) {
      out[name] = { up: (db) => m.up(db, this.#dialect) };
    }
    return out;
  }
}

export interface MigrateResult {
  applied: string[];
}

export async function migrateToLatest(database: Database): Promise<MigrateResult> {
  if (database.dialect === 'postgres') {
    // btree_gin lets the full-text GIN indexes lead with workspace_id (docs/decisions.md §1).
    // Two processes starting at once can both find it missing; the loser's unique violation means the
    // other made it.
    await sql`create extension if not exists btree_gin`.execute(database.db).catch((error) => {
      if (!isUniqueViolation(error)) throw error;
    });
  }
  // Kysely looks for its own tables across every schema it can see; pin it to ours, or another
  // schema's kysely_migration (another installation, a test) would be taken for this one's.
  const schema =
    database.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({
    db: database.db,
    provider: new Provider(database.dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** The names of every migration this version knows, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);
