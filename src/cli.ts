// `npm run --silent cairn -- <command>` (and the `cairn` bin). Prints JSON for machines, one-line
// errors for people, and exits non-zero on failure.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type Auth, inTransaction } from './context.ts';
import { type Database, openDatabase } from './db/index.ts';
import { migrateToLatest, migrationStatus } from './db/migrate.ts';
import { doctor, formatFindings } from './doctor.ts';
import { AppError } from './http/errors.ts';
import { isUuid } from './http/ids.ts';
import { loggerOptions } from './log.ts';
import { issueTokenForEmail } from './modules/api-tokens/service.ts';
import { operatorResetLink } from './modules/auth/recovery-service.ts';
import { startWebhookWorker } from './modules/webhooks/worker.ts';
import { createWorkspace, workspaceOwner } from './modules/workspaces/service.ts';
import { seed } from './seed/seed.ts';
import { transfer } from './transfer/command.ts';

const USAGE = `usage: cairn <command>

commands:
  migrate [--dry-run]                       apply pending database migrations (--dry-run: list them)
  doctor [--json] [--min-free-bytes N]      check the configuration, database, disk, Redis, public URL,
                                            webhooks and clock; each finding with its fix; exit 1 if any
  workspace create --name N --owner-name N --owner-email E
                                            create a workspace; prints {workspace, user, token}
  token create --user EMAIL [--name N] [--workspace ID]
                                            a new API token for an existing user of the workspace
                                            (default: the first); prints {token, id}
  user reset-password --email E [--workspace ID]
                                            a one-time link that sets the password of the user with
                                            this email (default workspace: the first); valid an
                                            hour; prints {url, expiresAt}
  seed --tasks N [--workspace ID] [--seed S]
                                            fill a workspace (default: the first) with demo data
  worker                                    deliver webhooks until SIGTERM (for a server running
                                            with CAIRN_WEBHOOK_WORKER=false)
  export --out FILE [--workspace ID]        write a workspace (default: all) as JSON Lines, from one
                                            snapshot (safe while the server runs)
  import FILE                               load an export into this database, all or nothing;
                                            workspaces already here are skipped
  backup --out FILE                         SQLite: a consistent copy of the live database
  restore FILE [--force]                    SQLite: replace the database with a backup (stop the
                                            server first; --force when it holds workspaces)

The database is DATABASE_URL (default: ./data/cairn.db).`;

function fail(message: string, code = 1): never {
  process.stderr.write(`cairn: ${message}\n`);
  process.exit(code);
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Runs a command as the owner of the given workspace (by id), or of the first one, on the migrated
 * database; an unknown workspace, or none yet (`noneYet` says what to do), is one line and exit 2.
 */
async function asOwner(
  config: Config,
  workspace: string | undefined,
  noneYet: string,
  run: (database: Database, owner: Auth) => Promise<void>,
): Promise<void> {
  if (workspace !== undefined && !isUuid(workspace)) fail(`no workspace ${workspace}`, 2);
  const database = openDatabase(config.databaseUrl, { preparedStatements: config.pgPreparedStatements });
  try {
    await migrateToLatest(database);
    const owner = await workspaceOwner(database, workspace);
    if (!owner) fail(workspace ? `no workspace ${workspace}` : noneYet, 2);
    await run(database, owner);
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  if (command === 'doctor') {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { json: { type: 'boolean' }, 'min-free-bytes': { type: 'string' } },
      strict: true,
    });
    const minFree = values['min-free-bytes'];
    if (minFree !== undefined && !/^\d+$/.test(minFree)) fail('--min-free-bytes must be a whole number', 2);
    const findings = await doctor(config, minFree === undefined ? {} : { minFreeBytes: Number(minFree) });
    const ok = findings.every((f) => f.ok);
    process.stdout.write(values.json ? `${JSON.stringify({ ok, findings })}\n` : formatFindings(findings));
    process.exit(ok ? 0 : 1);
  }

  if (command === 'migrate') {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { 'dry-run': { type: 'boolean' } },
      strict: true,
    });
    const database = openDatabase(config.databaseUrl, { preparedStatements: config.pgPreparedStatements });
    try {
      if (values['dry-run']) {
        const { pending, offline } = await migrationStatus(database);
        process.stdout.write(`${JSON.stringify({ database: database.description, pending, offline })}\n`);
        return;
      }
      const { applied } = await migrateToLatest(database);
      process.stdout.write(`${JSON.stringify({ database: database.description, applied })}\n`);
    } finally {
      await database.close();
    }
    return;
  }

  if (command === 'workspace' && sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        'owner-name': { type: 'string' },
        'owner-email': { type: 'string' },
      },
      strict: true,
    });
    const name = values.name?.trim();
    const ownerName = values['owner-name']?.trim();
    const ownerEmail = values['owner-email']?.trim();
    if (!name || !ownerName || !ownerEmail)
      fail('workspace create needs --name, --owner-name and --owner-email', 2);
    if (name.length > 512 || ownerName.length > 512) fail('names are at most 512 characters', 2);
    if (!EMAIL.test(ownerEmail)) fail(`--owner-email "${ownerEmail}" is not an email address`, 2);
    const database = openDatabase(config.databaseUrl, { preparedStatements: config.pgPreparedStatements });
    try {
      await migrateToLatest(database);
      const created = await createWorkspace(database, { name, ownerName, ownerEmail });
      process.stdout.write(`${JSON.stringify(created)}\n`);
    } finally {
      await database.close();
    }
    return;
  }

  if (command === 'token' && sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { user: { type: 'string' }, name: { type: 'string' }, workspace: { type: 'string' } },
      strict: true,
    });
    const email = values.user?.trim();
    if (!email) fail('token create needs --user EMAIL', 2);
    const name = values.name?.trim() || 'CLI token';
    if (name.length > 512) fail('--name is at most 512 characters', 2);
    await asOwner(config, values.workspace, 'no workspace yet', async (database, owner) => {
      const issued = await inTransaction(database, owner, (ctx) => issueTokenForEmail(ctx, email, name));
      if (!issued) fail(`no user with email ${email} in workspace "${owner.workspace.name}"`, 2);
      process.stdout.write(`${JSON.stringify({ token: issued.token, id: issued.row.id })}\n`);
    });
    return;
  }

  if (command === 'user' && sub === 'reset-password') {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: 'string' }, workspace: { type: 'string' } },
      strict: true,
    });
    const email = values.email?.trim();
    if (!email) fail('user reset-password needs --email EMAIL', 2);
    await asOwner(config, values.workspace, 'no workspace yet', async (database, owner) => {
      const link = await operatorResetLink(database, config.publicUrl, owner, email);
      if (!link) fail(`no user with email ${email} in workspace "${owner.workspace.name}"`, 2);
      process.stdout.write(`${JSON.stringify(link)}\n`);
    });
    return;
  }

  if (command === 'seed') {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { tasks: { type: 'string' }, workspace: { type: 'string' }, seed: { type: 'string' } },
      strict: true,
    });
    const tasks = Number(values.tasks);
    if (!values.tasks || !Number.isInteger(tasks) || tasks < 0 || tasks > 10_000_000) {
      fail('seed needs --tasks N, a whole number up to 10,000,000', 2);
    }
    const seedValue = values.seed === undefined ? undefined : Number(values.seed);
    if (seedValue !== undefined && !Number.isInteger(seedValue)) fail('--seed must be a whole number', 2);
    const noneYet = 'no workspace yet: start the server once, or run workspace create';
    await asOwner(config, values.workspace, noneYet, async (database, owner) => {
      const result = await seed(database, owner, {
        tasks,
        seed: seedValue,
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(`${JSON.stringify(result)}\n`);
    });
    return;
  }

  if (command === 'export' || command === 'import' || command === 'backup' || command === 'restore') {
    await transfer(config, argv.slice(1), command);
    return;
  }

  if (command === 'worker') {
    const database = openDatabase(config.databaseUrl, { preparedStatements: config.pgPreparedStatements });
    await migrateToLatest(database);
    const log = pino(loggerOptions(config.logLevel));
    const worker = startWebhookWorker(database, config, log);
    log.info({ database: database.description }, 'cairn webhook worker is running');
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    log.info('webhook worker stopping: finishing deliveries under way');
    await worker.stop();
    await database.close();
    return;
  }

  fail(`unknown command "${argv.join(' ')}"\n${USAGE}`, 2);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof AppError || error instanceof TypeError) fail(error.message, 2);
  fail((error as Error).message);
}
