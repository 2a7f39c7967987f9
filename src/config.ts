// Configuration comes from the environment only (docs/decisions.md §1). Every value is checked here, once, at
// start: a bad one stops the process with a single line naming the variable.
import { isIP } from 'node:net';
import { DEFAULT_RENDER_BUDGET_MS } from './text/render-pool.ts';

export interface Config {
  host: string;
  port: number;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bootstrapToken: string | undefined;
  publicUrl: string;
  /** Requests a minute per token. */
  rateLimit: number;
  rateLimitUnauthenticated: number;
  /** Text searches a minute per token, a budget of their own. */
  rateLimitSearch: number;
  /** Failed sign-ins for one email within signInLockoutSeconds before it is locked (auth/lockout.ts). */
  signInAccountFailures: number;
  /** Failed sign-ins from one address within signInLockoutSeconds before it is locked. */
  signInAddressFailures: number;
  /** The window failures are counted in, and how long a lockout lasts from the last failure. */
  signInLockoutSeconds: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's trustProxy): none
   * (false), any (true), or these addresses and CIDR ranges. The address is what per-address budgets
   * and sign-in lockouts count, and what a session records.
   */
  trustProxy: boolean | string[];
  /**
   * Longest a client may take to send a whole request, headers and body (0: no limit): a client that
   * sends slowly holds a socket and a request's memory, and its request its credential's view.
   */
  requestTimeoutMs: number;
  webhookAllowPrivate: boolean;
  /** Days events and delivery attempts are kept (the feed's reach). */
  webhookRetentionDays: number;
  /** Deliver webhooks from this process (off when `cairn worker` runs them elsewhere). */
  webhookWorker: boolean;
  /** Subscriptions delivered at once by one process. */
  webhookConcurrency: number;
  /**
   * PostgreSQL: run hot statements as named prepared statements (db/pg-statements.ts). Off for a
   * connection pooler in transaction mode that cannot keep them (PgBouncer before 1.21).
   */
  pgPreparedStatements: boolean;
  /** PostgreSQL: connections this process keeps at most. */
  pgPoolSize: number;
  /** PostgreSQL: how long a request waits for a connection (pool full or database away) before a 503. */
  pgConnectTimeoutMs: number;
  /** PostgreSQL: longest a statement of the server may run (0: no limit); migrations and the CLI are not limited. */
  pgStatementTimeoutMs: number;
  /** Longest one description's conversion may run in the render pool before it is refused (400). */
  renderBudgetMs: number;
  /** A listener of its own for GET /metrics (off when undefined; 0 picks a free port, logged). */
  metricsPort: number | undefined;
  /** GET /metrics on the main port, behind this bearer token (off when undefined). */
  metricsToken: string | undefined;
  /** Where invitation and password-reset mails go out (smtp:// or smtps://); none: nothing is mailed. */
  smtpUrl: string | undefined;
  /** The mails' From: CAIRN_MAIL_FROM, or `Cairn <no-reply@host of the public URL>`. */
  mailFrom: string;
  /** Live streams (GET /v1/events/stream) one user may hold at once on one process; past it, 429. */
  streamMaxPerUser: number;
  /** How often a live stream sends a heartbeat comment. */
  streamHeartbeatMs: number;
  /** What a live stream may have waiting for its reader; past it, the stream is closed. */
  streamBufferBytes: number;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`invalid ${variable}: ${message}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function value(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `"${raw}" is not a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback = false): boolean {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw new ConfigError(name, `"${raw}" is not true or false`);
}

function url(env: Env, name: string, protocols: RegExp, expected: string): string | undefined {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL (expected ${expected})`);
  }
  if (!protocols.test(parsed.protocol)) throw new ConfigError(name, `expected ${expected}`);
  return raw;
}

/** An IP address, or a CIDR range of them. */
function isProxyAddress(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = value(env, 'CAIRN_TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  const addresses = raw.split(',').map((a) => a.trim());
  if (!addresses.every(isProxyAddress)) {
    throw new ConfigError(
      'CAIRN_TRUST_PROXY',
      'expected true, false, or the proxies: addresses and CIDR ranges separated by commas',
    );
  }
  return addresses;
}

export function loadConfig(env: Env = process.env): Config {
  const host = value(env, 'HOST') ?? '127.0.0.1';
  const port = integer(env, 'PORT', 8080, 0, 65535);

  const databaseUrl = value(env, 'DATABASE_URL');
  if (databaseUrl && !/^(file:|postgres(ql)?:\/\/)/i.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'expected file:<path> or postgres://user@host/database');
  }
  if (databaseUrl?.startsWith('postgres')) url(env, 'DATABASE_URL', /^postgres(ql)?:$/, 'postgres://…');

  const logLevel = (value(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `"${logLevel}" is not one of ${LOG_LEVELS.join(', ')}`);
  }

  const bootstrapToken = value(env, 'CAIRN_BOOTSTRAP_TOKEN');
  if (bootstrapToken !== undefined && (bootstrapToken.length < 32 || /\s/.test(bootstrapToken))) {
    throw new ConfigError('CAIRN_BOOTSTRAP_TOKEN', 'must be at least 32 characters, without spaces');
  }

  const publicUrl =
    url(env, 'CAIRN_PUBLIC_URL', /^https?:$/, 'an http(s) URL') ??
    `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const metricsToken = value(env, 'CAIRN_METRICS_TOKEN');
  if (metricsToken !== undefined && (metricsToken.length < 32 || /\s/.test(metricsToken))) {
    throw new ConfigError('CAIRN_METRICS_TOKEN', 'must be at least 32 characters, without spaces');
  }
  const mailFrom = value(env, 'CAIRN_MAIL_FROM') ?? `Cairn <no-reply@${new URL(publicUrl).hostname}>`;
  if (!/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(mailFrom)) {
    throw new ConfigError('CAIRN_MAIL_FROM', 'expected an address, or Name <address>');
  }

  return {
    host,
    port,
    databaseUrl,
    redisUrl: url(env, 'REDIS_URL', /^rediss?:$/, 'redis://host:port'),
    logLevel: logLevel as Config['logLevel'],
    bootstrapToken,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    rateLimit: integer(env, 'CAIRN_RATE_LIMIT', 1000, 1, 1_000_000),
    rateLimitUnauthenticated: integer(env, 'CAIRN_RATE_LIMIT_UNAUTHENTICATED', 100, 1, 1_000_000),
    rateLimitSearch: integer(env, 'CAIRN_RATE_LIMIT_SEARCH', 300, 1, 1_000_000),
    signInAccountFailures: integer(env, 'CAIRN_SIGN_IN_ACCOUNT_FAILURES', 10, 1, 1_000_000),
    signInAddressFailures: integer(env, 'CAIRN_SIGN_IN_ADDRESS_FAILURES', 100, 1, 1_000_000),
    signInLockoutSeconds: integer(env, 'CAIRN_SIGN_IN_LOCKOUT_SECONDS', 900, 1, 86_400),
    trustProxy: trustProxy(env),
    requestTimeoutMs: integer(env, 'CAIRN_REQUEST_TIMEOUT_MS', 60_000, 0, 3_600_000),
    webhookAllowPrivate: boolean(env, 'CAIRN_WEBHOOK_ALLOW_PRIVATE'),
    webhookRetentionDays: integer(env, 'CAIRN_WEBHOOK_RETENTION_DAYS', 7, 1, 3650),
    webhookWorker: boolean(env, 'CAIRN_WEBHOOK_WORKER', true),
    webhookConcurrency: integer(env, 'CAIRN_WEBHOOK_CONCURRENCY', 16, 1, 1000),
    pgPreparedStatements: boolean(env, 'CAIRN_PG_PREPARED_STATEMENTS', true),
    pgPoolSize: integer(env, 'CAIRN_PG_POOL_SIZE', 10, 1, 1000),
    pgConnectTimeoutMs: integer(env, 'CAIRN_PG_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    pgStatementTimeoutMs: integer(env, 'CAIRN_PG_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    renderBudgetMs: integer(env, 'CAIRN_RENDER_BUDGET_MS', DEFAULT_RENDER_BUDGET_MS, 10, 600_000),
    metricsPort:
      value(env, 'CAIRN_METRICS_PORT') === undefined
        ? undefined
        : integer(env, 'CAIRN_METRICS_PORT', 0, 0, 65535),
    metricsToken,
    smtpUrl: url(env, 'CAIRN_SMTP_URL', /^smtps?:$/, 'smtp://user:password@host:port or smtps://…'),
    mailFrom,
    streamMaxPerUser: integer(env, 'CAIRN_STREAM_MAX_PER_USER', 10, 1, 100_000),
    streamHeartbeatMs: integer(env, 'CAIRN_STREAM_HEARTBEAT_MS', 20_000, 10, 3_600_000),
    streamBufferBytes: integer(env, 'CAIRN_STREAM_BUFFER_BYTES', 262_144, 4096, 67_108_864),
  };
}

/** Whether metrics are collected: only when something can read them (docs/operations.md). */
export function metricsOn(config: Config): boolean {
  return config.metricsPort !== undefined || config.metricsToken !== undefined;
}
