// What happens once before serving: migrations, and on an empty database the first workspace, its owner's
// token and a one-time link for the owner to set a password (docs/decisions.md §1). `npm start` runs it
// in its own process; `npm run start:cluster` runs it in the primary before any worker starts, so that
// workers never race to bootstrap.
import type { Config } from './config.ts';
import { openDatabase } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { issueSetupLink } from './modules/auth/recovery-service.ts';
import { bootstrap } from './modules/workspaces/service.ts';

export async function prepare(config: Config, fail: (message: string) => never): Promise<void> {
  // A connection of its own, without the statement timeout: building an index on a large table may
  // take longer than any request should.
  const database = openDatabase(config.databaseUrl, { poolSize: 1, preparedStatements: false });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close().catch(() => {});
    fail(`cannot prepare the database (${database.description}): ${(error as Error).message}`);
  }
  try {
    const created = await bootstrap(database, config.bootstrapToken);
    if (created) {
      const line = config.bootstrapToken
        ? 'Bootstrap API token: (the value of CAIRN_BOOTSTRAP_TOKEN)'
        : `Bootstrap API token: ${created.token}`;
      // The owner's password, for the web app: a setup link, which works as a reset link does
      // (modules/auth/recovery-service.ts). Printed, never logged, like the token.
      const setup = await issueSetupLink(database, config.publicUrl, created.workspace.id, created.user.id);
      process.stdout.write(
        `Created workspace "${created.workspace.name}" with owner ${created.user.email}\n${line}\n` +
          `Setup link: ${setup.url} (sets the owner's password; works once, until ${setup.expiresAt})\n`,
      );
    }
  } finally {
    await database.close();
  }
}
