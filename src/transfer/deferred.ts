// An import into tables that hold no rows yet (the move into a new database) leaves out, while it
// writes, the work that is cheaper done once over all rows at the end, in the same transaction:
// - their secondary indexes are dropped and built again at the end: building an index is one sort,
//   where keeping a dozen indexes up to date is a dozen random B-tree inserts per row;
// - on PostgreSQL, a foreign key between two such tables is dropped and added again at the end, which
//   checks every row in one join instead of a trigger's query per row (SQLite's keys are part of the
//   table, and cheap: they stay).
// The definitions are read from the database's own catalog and run again as they were, so nothing of
// the schema is restated here. Unique indexes and constraints' indexes stay: they are checks. A key
// that a row breaks fails the import at the end as it would have at the row, naming the constraint;
// a rollback restores everything dropped (both databases' DDL is transactional). Measured in
// docs/performance.md ("Import").
//
// On PostgreSQL these drops lock their tables until the import commits: a server reading the same
// database waits for the import there (the tables were empty). On SQLite (WAL) readers keep reading
// the snapshot from before the import.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/types.ts';
import { ImportError } from './loader.ts';

interface Dropped {
  /** The statement that drops it, and the one that makes it again. */
  drop: string;
  make: string;
}

/** Work an import leaves for its end: what it is (null: none), and doing it (before the commit). */
export interface Deferred {
  what: string | null;
  finish: () => Promise<unknown>;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The secondary indexes of `table`: not unique, not a constraint's. */
async function secondaryIndexes(db: Kysely<DB>, dialect: Dialect, table: string): Promise<Dropped[]> {
  if (dialect === 'sqlite') {
    // SQLite's constraint indexes have no SQL text (sqlite_autoindex_…).
    const rows = await sql<{ name: string; sql: string }>`select name, sql from sqlite_schema
      where type = 'index' and tbl_name = ${table} and sql is not null order by name`.execute(db);
    return rows.rows
      .filter((r) => !/^\s*create\s+unique\s/i.test(r.sql))
      .map((r) => ({ drop: `drop index ${quoted(r.name)}`, make: r.sql }));
  }
  const rows = await sql<{ schema: string; name: string; definition: string }>`select n.nspname as schema,
      c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where i.indrelid = to_regclass(${table}) and not i.indisunique and not i.indisprimary
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by c.relname`.execute(db);
  return rows.rows.map((r) => ({
    drop: `drop index ${quoted(r.schema)}.${quoted(r.name)}`,
    make: r.definition,
  }));
}

/** PostgreSQL: the foreign keys of `table`, each with the table it references. */
async function foreignKeys(db: Kysely<DB>, table: string): Promise<(Dropped & { references: string })[]> {
  const rows = await sql<{ name: string; on: string; references: string; definition: string }>`select
      k.conname as name, k.conrelid::regclass::text as on, r.relname as references,
      pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class r on r.oid = k.confrelid
    where k.contype = 'f' and k.conrelid = to_regclass(${table}) order by k.conname`.execute(db);
  return rows.rows.map((r) => ({
    references: r.references,
    drop: `alter table ${r.on} drop constraint ${quoted(r.name)}`,
    make: `alter table ${r.on} add constraint ${quoted(r.name)} ${r.definition}`,
  }));
}

async function isEmpty(db: Kysely<DB>, table: string): Promise<boolean> {
  const rows = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
  return rows.rows.length === 0;
}

/**
 * Drops the secondary indexes of each of `tables` that holds no rows, and on PostgreSQL the foreign
 * keys between two such tables; `finish` makes them again.
 */
export async function deferIndexesAndKeys(
  db: Kysely<DB>,
  dialect: Dialect,
  tables: readonly string[],
): Promise<Deferred> {
  const empty = new Map<string, boolean>();
  const emptied = async (table: string) => {
    let known = empty.get(table);
    if (known === undefined) {
      known = await isEmpty(db, table);
      empty.set(table, known);
    }
    return known;
  };
  const indexes: Dropped[] = [];
  const keys: Dropped[] = [];
  for (const table of tables) {
    if (!(await emptied(table))) continue;
    indexes.push(...(await secondaryIndexes(db, dialect, table)));
    if (dialect !== 'postgres') continue;
    for (const key of await foreignKeys(db, table)) if (await emptied(key.references)) keys.push(key);
  }
  for (const { drop } of [...keys, ...indexes]) await sql.raw(drop).execute(db);
  const what =
    indexes.length + keys.length === 0
      ? null
      : `building ${indexes.length} indexes${keys.length > 0 ? ` and checking ${keys.length} foreign keys` : ''}`;
  const finish = async () => {
    if (dialect === 'postgres' && indexes.length > 0) {
      // Index builds sort in memory up to this (the default, 64 MB, spills 100,000 tasks to disk).
      await sql`set local maintenance_work_mem = '256MB'`.execute(db);
    }
    for (const { make } of [...indexes, ...keys]) {
      try {
        await sql.raw(make).execute(db);
      } catch (error) {
        // A row whose reference leads nowhere: refused as the row itself would have been.
        throw new ImportError((error as Error).message);
      }
    }
  };
  return { what, finish };
}
