// An import into tables that hold no rows yet (the move into a new database) drops their secondary
// indexes first and builds them again at the end, in the same transaction: building an index from all
// of its rows at once is a sort, where keeping a dozen indexes up to date row by row is a dozen random
// B-tree inserts per row (measured on 100,000 tasks: docs/performance.md "Import"). The definitions
// are read from the database's own catalog and run again as they were, so nothing about the schema
// is restated here. Unique indexes and those behind constraints stay: they are checks, not speed.
//
// On PostgreSQL dropping an index locks its table until the import commits, so a server reading the
// same database waits for it; only tables that were empty are touched, and on SQLite (WAL) readers
// keep reading the snapshot before the import.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/types.ts';

interface Dropped {
  name: string;
  /** The statement that makes it again. */
  definition: string;
}

/** The secondary indexes of `table`: not unique, not a constraint's. */
async function secondaryIndexes(db: Kysely<DB>, dialect: Dialect, table: string): Promise<Dropped[]> {
  if (dialect === 'sqlite') {
    // SQLite's constraint indexes have no SQL text (sqlite_autoindex_…).
    const rows = await sql<{ name: string; sql: string }>`select name, sql from sqlite_schema
      where type = 'index' and tbl_name = ${table} and sql is not null order by name`.execute(db);
    return rows.rows
      .filter((r) => !/^\s*create\s+unique\s/i.test(r.sql))
      .map((r) => ({ name: `"${r.name}"`, definition: r.sql }));
  }
  const rows = await sql<{ schema: string; name: string; definition: string }>`select n.nspname as schema,
      c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where i.indrelid = to_regclass(${table}) and not i.indisunique and not i.indisprimary
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by c.relname`.execute(db);
  return rows.rows.map((r) => ({
    name: `"${r.schema.replaceAll('"', '""')}"."${r.name.replaceAll('"', '""')}"`,
    definition: r.definition,
  }));
}

async function isEmpty(db: Kysely<DB>, table: string): Promise<boolean> {
  const rows = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
  return rows.rows.length === 0;
}

/**
 * Drops the secondary indexes of each of `tables` that holds no rows; the returned function builds
 * them again (call it before the commit: a rollback restores them by itself).
 */
export async function deferIndexes(
  db: Kysely<DB>,
  dialect: Dialect,
  tables: readonly string[],
): Promise<() => Promise<void>> {
  const dropped: Dropped[] = [];
  for (const table of tables) {
    if (!(await isEmpty(db, table))) continue;
    for (const index of await secondaryIndexes(db, dialect, table)) {
      await sql.raw(`drop index ${index.name}`).execute(db);
      dropped.push(index);
    }
  }
  return async () => {
    for (const index of dropped) await sql.raw(index.definition).execute(db);
  };
}
