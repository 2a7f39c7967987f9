// The CLI side of moving data: `cairn export`, `import`, `backup` and `restore`. Progress goes to
// stderr, the result as one JSON line to stdout; any failure throws (cli.ts prints it and exits 1).
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { BackupError, backupSqlite, inUse, restoreSqlite, workspacesIn } from '../db/backup.ts';
import { isPostgresUrl, openDatabase, sqlitePath } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { isUuid } from '../http/ids.ts';
import { exportData } from './export.ts';
import { ImportError, importData } from './import.ts';

const progress = (line: string) => process.stderr.write(`${line}\n`);
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

export async function transfer(config: Config, args: string[], command: string): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: 'string' }, workspace: { type: 'string' }, force: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const onPostgres = config.databaseUrl !== undefined && isPostgresUrl(config.databaseUrl);

  if (command === 'backup' || command === 'restore') {
    if (onPostgres) {
      throw new BackupError(
        `${command} is for SQLite; on PostgreSQL use pg_dump and pg_restore (docs/deployment.md "Backups")`,
      );
    }
    const path = sqlitePath(config.databaseUrl);
    if (command === 'backup') {
      if (!values.out) throw new BackupError('backup needs --out FILE');
      const done = await backupSqlite(path, values.out);
      print({ database: `sqlite:${path}`, out: values.out, ...done });
      return;
    }
    const from = positionals[0];
    if (!from) throw new BackupError('restore needs the backup FILE');
    // Before --force is even considered: nothing makes replacing a database under its server safe.
    if (inUse(path)) {
      throw new BackupError(
        `the database at ${path} is open in another process (a running server?): stop it, then run restore again`,
      );
    }
    const held = workspacesIn(path);
    if (held > 0 && !values.force) {
      throw new BackupError(
        `the database at ${path} holds ${held} workspace(s), which restore replaces: stop the server, then run again with --force`,
      );
    }
    const done = await restoreSqlite(from, path);
    const database = openDatabase(config.databaseUrl);
    try {
      const { applied } = await migrateToLatest(database);
      print({ database: database.description, from, ...done, migrated: applied });
    } finally {
      await database.close();
    }
    return;
  }

  const database = openDatabase(config.databaseUrl, { preparedStatements: config.pgPreparedStatements });
  try {
    await migrateToLatest(database);
    if (command === 'export') {
      if (!values.out) throw new ImportError('export needs --out FILE');
      if (values.workspace !== undefined && !isUuid(values.workspace)) {
        throw new ImportError(`no workspace ${values.workspace}`);
      }
      // Written beside the target and renamed at the end, so a failed export never leaves a file behind.
      const partial = `${values.out}.partial`;
      const out = createWriteStream(partial);
      try {
        const result = await exportData(database, out, { workspaceId: values.workspace, progress });
        out.end();
        await finished(out);
        renameSync(partial, values.out);
        print({ database: database.description, out: values.out, ...result });
      } catch (error) {
        out.destroy();
        rmSync(partial, { force: true });
        throw error;
      }
      return;
    }
    const file = positionals[0];
    if (!file) throw new ImportError('import needs the FILE an export wrote');
    if (!existsSync(file)) throw new ImportError(`no file ${file}`);
    progress(
      database.dialect === 'sqlite'
        ? "import: one transaction holds the database's write lock until the import ends; a server on this database waits for every write meanwhile (and answers 503 after its busy timeout)"
        : "import: one transaction holds locks on Cairn's tables until the import ends; a server on this database waits for reads and writes of them meanwhile",
    );
    const result = await importData(database, () => createReadStream(file), { progress });
    print({ database: database.description, file, ...result });
  } finally {
    await database.close();
  }
}
