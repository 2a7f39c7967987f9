// `cairn backup` and `cairn restore` for SQLite, through SQLite's online backup API: a backup copies a
// consistent snapshot page by page while the server goes on writing, and a restore writes into the
// database under SQLite's own locks. PostgreSQL has pg_dump and pg_restore (docs/deployment.md).
import { existsSync, renameSync, rmSync } from 'node:fs';
import { backup, DatabaseSync } from 'node:sqlite';
import { MIGRATION_NAMES } from './migrate.ts';

export class BackupError extends Error {}

/** A step size no database reaches (node:sqlite takes no -1): the whole copy in one step. */
const ALL_PAGES = 2_147_483_647;

/** Checks a SQLite file: intact, and of a schema this Cairn knows. Returns its schema version. */
export function checkSqliteFile(path: string): string {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (error) {
    throw new BackupError(`${path} cannot be opened: ${(error as Error).message}`);
  }
  try {
    const check = db.prepare('pragma integrity_check').all() as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok') {
      throw new BackupError(
        `${path} fails its integrity check: ${check.map((r) => r.integrity_check).join('; ')}`,
      );
    }
    let schema: string | undefined;
    try {
      const row = db.prepare('select name from kysely_migration order by name desc limit 1').get() as
        | { name: string }
        | undefined;
      schema = row?.name;
    } catch {
      schema = undefined;
    }
    if (!schema) throw new BackupError(`${path} is not a Cairn database`);
    if (!MIGRATION_NAMES.includes(schema)) {
      throw new BackupError(
        `${path} is of schema ${schema}, newer than this Cairn knows: upgrade Cairn first`,
      );
    }
    return schema;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${path} is not a SQLite database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/** Copies the live database at `from` to `to` (written beside it, then renamed: never a partial file). */
export async function backupSqlite(from: string, to: string): Promise<{ pages: number; schema: string }> {
  if (!existsSync(from)) throw new BackupError(`no database at ${from}`);
  const partial = `${to}.partial`;
  rmSync(partial, { force: true });
  const source = new DatabaseSync(from);
  try {
    source.exec('pragma busy_timeout = 5000');
    // All pages in one step, under one read snapshot. In steps (the default, 100 pages),
    // every write the server commits in between restarts the copy: under steady writes it never ends.
    // In WAL mode the one long read blocks no writer.
    const pages = await backup(source, partial, { rate: ALL_PAGES });
    const schema = checkSqliteFile(partial);
    renameSync(partial, to);
    return { pages, schema };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

/** How many workspaces a database file holds (0 when it does not exist or has no schema yet). */
export function workspacesIn(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Number((db.prepare('select count(*) as n from workspaces').get() as { n: number }).n);
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

/**
 * Whether another connection (a running server, another cairn command) has the database open. An
 * exclusive lock in exclusive locking mode is refused while any other connection holds the file, even an
 * idle one in WAL mode; the locks are the operating system's, so a crashed server holds none. A restore
 * under a running server would replace the pages that server is reading and writing.
 */
export function inUse(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new DatabaseSync(path);
  try {
    db.exec('pragma busy_timeout = 0');
    db.exec('pragma locking_mode = exclusive');
    db.exec('begin exclusive');
    db.exec('commit');
    return false;
  } catch (error) {
    if (/locked|busy/i.test((error as Error).message)) return true;
    throw error;
  } finally {
    db.close();
  }
}

/** Replaces the database at `to` with the backup at `from`, checked first. */
export async function restoreSqlite(from: string, to: string): Promise<{ pages: number; schema: string }> {
  const schema = checkSqliteFile(from);
  const source = new DatabaseSync(from, { readOnly: true });
  try {
    const pages = await backup(source, to, { rate: ALL_PAGES });
    return { pages, schema };
  } finally {
    source.close();
  }
}
