// Versioned, forward-only migrations, run at start and by `cairn migrate`. Kysely's Migrator records
// what has run in kysely_migration and, on PostgreSQL, holds an advisory lock so that several processes
// starting at once migrate exactly once.
import { readdirSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { isUniqueViolation } from './errors.ts';
import type { Database, Dialect } from './index.ts';

type Up = (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;

// Every `NNNN_name.ts` of migrations/ is one migration, run in the order of its name. Append only;
// never edit one that has shipped. A new one is a new file, and nothing else to edit.
const FOLDER = new URL('./migrations/', import.meta.url);
const NAME = /^(\d{4}_[a-z0-9_]+)\.ts$/;

/** The names of every migration this version knows, oldest first. */
export const MIGRATION_NAMES: readonly string[] = readdirSync(FOLDER)
  .map((file) => NAME.exec(file)?.[1])
  .filter((name) => name !== undefined)
  .sort();

/**
 * Migrations no process of an older version may run through (PostgreSQL): they change the type of
 * columns that an open connection's prepared statements compare with their parameters, so an older
 * process's queries fail until it is replaced (docs/deployment.md, "Upgrades"). Every other migration
 * is additive, and a rolling upgrade runs it under the older processes.
 */
export const OFFLINE_MIGRATIONS: readonly string[] = ['0020_uuid_ids'];

class Provider implements MigrationProvider {
  readonly #dialect: Dialect;
  constructor(dialect: Dialect) {
    this.#dialect = dialect;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const name of MIGRATION_NAMES) {
      const { up } = (await import(new URL(`${name}.ts`, FOLDER).href)) as { up: Up };
      out[name] = { up: (db) => up(db, this.#dialect) };
    }
    return out;
  }
}

export interface MigrateResult {
  applied: string[];
}

class NewerSchemaError extends Error {}

/** The migrations this database has run, oldest first (none on an empty database). */
async function appliedMigrations(database: Database): Promise<string[]> {
  const present =
    database.dialect === 'sqlite'
      ? await sql<{
          n: number;
        }>`select count(*) as n from sqlite_master where name = 'kysely_migration'`.execute(database.db)
      : await sql<{
          n: number;
        }>`select count(*)::int as n where to_regclass('kysely_migration') is not null`.execute(database.db);
  if (Number(present.rows[0]?.n) === 0) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
    database.db,
  );
  return rows.rows.map((r) => r.name);
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
  /** The pending ones that need every older process stopped first (OFFLINE_MIGRATIONS; PostgreSQL). */
  offline: string[];
}

/**
 * What migrating would do, without doing it. A database migrated by a newer Cairn (a migration this
 * version does not know) is refused with both versions named: running an older Cairn on it would read
 * and write a schema it was not written for.
 */
export async function migrationStatus(database: Database): Promise<MigrationStatus> {
  const applied = await appliedMigrations(database);
  const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new NewerSchemaError(
      `the database is at schema ${applied.at(-1)}, made by a newer Cairn; this Cairn knows schemas up to ${MIGRATION_NAMES.at(-1)}: run the newer Cairn, or restore a backup taken before the upgrade`,
    );
  }
  const pending = MIGRATION_NAMES.filter((name) => !applied.includes(name));
  const offline =
    database.dialect === 'postgres' && applied.length > 0
      ? pending.filter((name) => OFFLINE_MIGRATIONS.includes(name))
      : [];
  return { applied, pending, offline };
}

export function migrateToLatest(database: Database): Promise<MigrateResult> {
  return migrate(database, (migrator) => migrator.migrateToLatest());
}

/** Migrates up to and including `name` only: the upgrade test's database of an older schema. */
export function migrateUpTo(database: Database, name: string): Promise<MigrateResult> {
  return migrate(database, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  database: Database,
  step: (migrator: Migrator) => ReturnType<Migrator['migrateToLatest']>,
): Promise<MigrateResult> {
  await migrationStatus(database);
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
  let { error, results } = await step(migrator);
  // Kysely finds its own tables by reading every schema's (has_schema_privilege on each, kysely#1419):
  // another schema dropped meanwhile fails that read with 3F000 naming it. Nothing ran; ask again.
  for (let attempt = 1; attempt < 10 && droppedMeanwhile(error, schema); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    ({ error, results } = await step(migrator));
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** A schema other than ours was dropped while Kysely's introspection read the catalog. */
function droppedMeanwhile(error: unknown, schema: string | undefined): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === '3F000' && schema !== undefined && !String(e.message).includes(`"${schema}"`);
}
