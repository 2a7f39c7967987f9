// `cairn doctor` (docs/operations.md "cairn doctor"): checks what an operator would check by hand when
// something looks wrong, and says for each finding what to do. It changes nothing: SQLite is opened
// read-only (never created, its journal mode never set), PostgreSQL through one connection of its own.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { type Database, isPostgresUrl, openDatabase, sqliteDatabase, sqlitePath } from './db/index.ts';
import { migrationStatus } from './db/migrate.ts';
import { countByState } from './modules/webhooks/repository.ts';

export interface Finding {
  check: string;
  ok: boolean;
  message: string;
  /** What to do, when not ok. */
  fix?: string;
}

export interface DoctorOptions {
  /** Below this many free bytes beside the SQLite file is a finding (default 1 GiB). */
  minFreeBytes?: number;
  /** How long a network check may take (default 3 s). */
  timeoutMs?: number;
}

const SECRET_SETTINGS: (keyof Config)[] = ['bootstrapToken', 'metricsToken'];

/** The configuration as parsed, secrets and URL passwords masked. */
function configuration(config: Config): Finding {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    if (SECRET_SETTINGS.includes(key as keyof Config)) shown[key] = '(set)';
    else if (typeof value === 'string' && /^[a-z]+:\/\//i.test(value)) shown[key] = withoutPassword(value);
    else shown[key] = value;
  }
  return { check: 'configuration', ok: true, message: JSON.stringify(shown) };
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '****';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Opens the database without changing it; a finding instead when it cannot be opened. */
function openForDoctor(config: Config, timeoutMs: number): Database | Finding {
  const url = config.databaseUrl;
  if (url && isPostgresUrl(url)) {
    return openDatabase(url, { poolSize: 1, connectTimeoutMs: timeoutMs, preparedStatements: false });
  }
  const path = sqlitePath(url);
  let raw: DatabaseSync;
  try {
    raw = new DatabaseSync(path, { readOnly: true });
  } catch (error) {
    return {
      check: 'database',
      ok: false,
      message: `cannot open the SQLite database at ${path}: ${(error as Error).message}`,
      fix: 'check DATABASE_URL; the first `npm start` creates the file',
    };
  }
  return sqliteDatabase(path, raw);
}

async function reachable(database: Database): Promise<Finding> {
  try {
    const version =
      database.dialect === 'sqlite'
        ? (await sql<{ v: string }>`select sqlite_version() as v`.execute(database.db)).rows[0]?.v
        : (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(database.db))
            .rows[0]?.v;
    const name = database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    return { check: 'database', ok: true, message: `${database.description} answers: ${name} ${version}` };
  } catch (error) {
    return {
      check: 'database',
      ok: false,
      message: `${database.description} does not answer: ${(error as Error).message}`,
      fix: 'check DATABASE_URL, that the database runs, and that this machine may reach it',
    };
  }
}

async function migrations(database: Database): Promise<Finding> {
  try {
    const { applied, pending, offline } = await migrationStatus(database);
    if (pending.length === 0) {
      return { check: 'migrations', ok: true, message: `schema ${applied.at(-1)}, nothing pending` };
    }
    return {
      check: 'migrations',
      ok: false,
      message: `${pending.length} migration(s) pending: ${pending.join(', ')}`,
      fix:
        offline.length > 0
          ? `stop every process of the older version first (${offline.join(', ')} cannot run under them), then run \`cairn migrate\` or start one new process`
          : 'run `cairn migrate` (a server also migrates when it starts)',
    };
  } catch (error) {
    return {
      check: 'migrations',
      ok: false,
      message: (error as Error).message,
      fix: 'run the Cairn that migrated this database, or restore a backup taken before the upgrade',
    };
  }
}

async function sqliteFile(database: Database, options: Required<DoctorOptions>): Promise<Finding[]> {
  const path = database.description.slice('sqlite:'.length);
  const pragma = async (text: string) =>
    Object.values((await sql.raw<Record<string, unknown>>(text).execute(database.db)).rows[0] ?? {})[0];
  const findings: Finding[] = [];
  const mode = String(await pragma('pragma journal_mode'));
  findings.push(
    mode === 'wal'
      ? { check: 'sqlite journal', ok: true, message: 'WAL' }
      : {
          check: 'sqlite journal',
          ok: false,
          message: `journal mode is ${mode}, not WAL: readers wait for writers`,
          fix: 'start the server once (it sets WAL), or `sqlite3 FILE "pragma journal_mode=wal"` while it is stopped',
        },
  );
  const check = await sql
    .raw<{ quick_check: string }>('pragma quick_check')
    .execute(database.db)
    .then(
      (r) => r.rows,
      (error: Error) => [{ quick_check: error.message }],
    );
  const intact = check.length === 1 && check[0]?.quick_check === 'ok';
  findings.push(
    intact
      ? { check: 'sqlite integrity', ok: true, message: 'quick_check ok' }
      : {
          check: 'sqlite integrity',
          ok: false,
          message: `quick_check: ${check.map((r) => r.quick_check).join('; ')}`,
          fix: 'stop the server and restore the latest backup (`cairn restore`, docs/deployment.md "Backups")',
        },
  );
  const fs = statfsSync(dirname(path));
  const free = fs.bavail * fs.bsize;
  const size = fs.blocks * fs.bsize;
  const low = free < options.minFreeBytes || free < size * 0.05;
  findings.push({
    check: 'disk space',
    ok: !low,
    message: `${gib(free)} free of ${gib(size)} beside ${path}`,
    ...(low
      ? { fix: 'free space on that disk, or move the database (docs/deployment.md "Moving data")' }
      : {}),
  });
  return findings;
}

const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

async function pgPool(database: Database, config: Config): Promise<Finding> {
  const row = (
    await sql<{ max: number; reserved: number; used: number }>`
      select current_setting('max_connections')::int as max,
             current_setting('superuser_reserved_connections')::int as reserved,
             (select count(*)::int from pg_stat_activity) as used`.execute(database.db)
  ).rows[0]!;
  const room = row.max - row.reserved;
  const processes = Math.floor(room / config.pgPoolSize);
  const message = `max_connections ${row.max} (${row.reserved} reserved, ${row.used} in use now); CAIRN_PG_POOL_SIZE ${config.pgPoolSize} leaves room for ${processes} process(es)`;
  if (processes >= 2) return { check: 'postgresql pool', ok: true, message };
  return {
    check: 'postgresql pool',
    ok: false,
    message,
    fix: 'lower CAIRN_PG_POOL_SIZE or raise max_connections: processes × pool size, plus workers and the CLI, must fit',
  };
}

async function redis(config: Config, timeoutMs: number): Promise<Finding | undefined> {
  if (!config.redisUrl) return undefined;
  const { Redis } = await import('ioredis');
  const client = new Redis(config.redisUrl, {
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const pong = await client.ping();
    return {
      check: 'redis',
      ok: pong === 'PONG',
      message: `${withoutPassword(config.redisUrl)} answers ${pong}`,
    };
  } catch (error) {
    return {
      check: 'redis',
      ok: false,
      message: `${withoutPassword(config.redisUrl)} does not answer: ${(error as Error).message}`,
      fix: 'start Redis or correct REDIS_URL; meanwhile each process counts rate limits on its own',
    };
  } finally {
    client.disconnect();
  }
}

async function publicUrl(config: Config, timeoutMs: number): Promise<Finding> {
  const url = `${config.publicUrl}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (res.ok) return { check: 'public url', ok: true, message: `${url} answers ${res.status}` };
    return {
      check: 'public url',
      ok: false,
      message: `${url} answers ${res.status}`,
      fix: 'CAIRN_PUBLIC_URL must reach this Cairn (links in payloads and invitations use it)',
    };
  } catch (error) {
    return {
      check: 'public url',
      ok: false,
      message: `${url} does not answer: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`,
      fix: 'start the server, or set CAIRN_PUBLIC_URL to the address people and receivers use',
    };
  }
}

async function webhooks(database: Database): Promise<Finding> {
  const counts = await countByState(database.db);
  const message = `${counts.active} active, ${counts.failing} failing, ${counts.disabled} disabled subscription(s)`;
  if (counts.failing === 0) return { check: 'webhooks', ok: true, message };
  const oldest = await database.db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.min('failing_since').as('since'))
    .where('state', '!=', 'disabled')
    .executeTakeFirst();
  return {
    check: 'webhooks',
    ok: false,
    message: `${message}; failing since ${oldest?.since}`,
    fix: 'their receivers do not answer 2xx: the delivery log (GET /v1/webhooks/subscribe/{id}/deliveries) says why; they are disabled after 3 days',
  };
}

/** Events stamped after now mean the clock went back: cursors and ETags assume it only moves on. */
async function clock(database: Database): Promise<Finding> {
  const now = new Date();
  const newest = await database.db
    .selectFrom('events')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .executeTakeFirst();
  const at = newest?.at ? Date.parse(newest.at) : undefined;
  const drift =
    database.dialect === 'postgres'
      ? Date.parse((await sql<{ t: string }>`select now() as t`.execute(database.db)).rows[0]!.t) -
        now.getTime()
      : 0;
  if (at !== undefined && at > now.getTime() + 1000) {
    return {
      check: 'clock',
      ok: false,
      message: `the newest event is stamped ${new Date(at).toISOString()}, after this machine's ${now.toISOString()}: the clock went back`,
      fix: 'set the clock right (NTP) before serving: times must only move forward',
    };
  }
  if (Math.abs(drift) > 2000) {
    return {
      check: 'clock',
      ok: false,
      message: `the database's clock is ${Math.round(drift / 1000)} s from this machine's`,
      fix: 'run NTP on both machines',
    };
  }
  return { check: 'clock', ok: true, message: now.toISOString() };
}

export async function doctor(config: Config, options: DoctorOptions = {}): Promise<Finding[]> {
  const opts = { minFreeBytes: options.minFreeBytes ?? 2 ** 30, timeoutMs: options.timeoutMs ?? 3000 };
  const findings: Finding[] = [configuration(config)];
  const opened = openForDoctor(config, opts.timeoutMs);
  if ('ok' in opened) findings.push(opened);
  else {
    try {
      const answer = await reachable(opened);
      findings.push(answer);
      if (answer.ok) {
        const schema = await migrations(opened);
        findings.push(schema);
        if (opened.dialect === 'sqlite') findings.push(...(await sqliteFile(opened, opts)));
        else findings.push(await pgPool(opened, config));
        if (schema.ok) findings.push(await webhooks(opened), await clock(opened));
      }
    } finally {
      await opened.close();
    }
  }
  const cache = await redis(config, opts.timeoutMs);
  if (cache) findings.push(cache);
  findings.push(await publicUrl(config, opts.timeoutMs));
  return findings;
}

/** The findings as lines for a person: `ok`/`FAIL`, the check, what was found, and the fix. */
export function formatFindings(findings: Finding[]): string {
  return findings
    .map((f) => `${f.ok ? 'ok  ' : 'FAIL'} ${f.check}: ${f.message}${f.fix ? `\n     fix: ${f.fix}` : ''}\n`)
    .join('');
}
