import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults: 127.0.0.1:8080, SQLite, info logs, 1000 requests a minute per token, 100 per address without one', () => {
  const c = loadConfig({});
  assert.deepEqual(c, {
    host: '127.0.0.1',
    port: 8080,
    databaseUrl: undefined,
    redisUrl: undefined,
    logLevel: 'info',
    bootstrapToken: undefined,
    publicUrl: 'http://127.0.0.1:8080',
    rateLimit: 1000,
    rateLimitUnauthenticated: 100,
    rateLimitSearch: 300,
    signInAccountFailures: 10,
    signInAddressFailures: 100,
    signInLockoutSeconds: 900,
    trustProxy: false,
    requestTimeoutMs: 60_000,
    webhookAllowPrivate: false,
    webhookRetentionDays: 7,
    webhookWorker: true,
    webhookConcurrency: 16,
    pgPreparedStatements: true,
    pgPoolSize: 10,
    pgConnectTimeoutMs: 5000,
    pgStatementTimeoutMs: 30_000,
    renderBudgetMs: 10_000,
    metricsPort: undefined,
    metricsToken: undefined,
    smtpUrl: undefined,
    mailFrom: 'Cairn <no-reply@127.0.0.1>',
    streamMaxPerUser: 10,
    streamHeartbeatMs: 20_000,
    streamBufferBytes: 262_144,
  });
});

test('reads every variable', () => {
  const c = loadConfig({
    HOST: '0.0.0.0',
    PORT: '9000',
    DATABASE_URL: 'postgres://u@db/cairn',
    REDIS_URL: 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'DEBUG',
    CAIRN_BOOTSTRAP_TOKEN: 't'.repeat(32),
    CAIRN_PUBLIC_URL: 'https://cairn.example.com/',
    CAIRN_RATE_LIMIT: '50',
    CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true',
    CAIRN_WEBHOOK_RETENTION_DAYS: '30',
    CAIRN_WEBHOOK_WORKER: 'false',
    CAIRN_WEBHOOK_CONCURRENCY: '4',
    CAIRN_PG_PREPARED_STATEMENTS: 'false',
    CAIRN_PG_POOL_SIZE: '40',
    CAIRN_PG_CONNECT_TIMEOUT_MS: '2000',
    CAIRN_PG_STATEMENT_TIMEOUT_MS: '0',
    CAIRN_REQUEST_TIMEOUT_MS: '0',
    CAIRN_METRICS_PORT: '9464',
    CAIRN_METRICS_TOKEN: 'm'.repeat(32),
    CAIRN_SIGN_IN_ACCOUNT_FAILURES: '5',
    CAIRN_SIGN_IN_ADDRESS_FAILURES: '50',
    CAIRN_SIGN_IN_LOCKOUT_SECONDS: '60',
    CAIRN_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    CAIRN_SMTP_URL: 'smtps://cairn:secret@mail.example.com:465',
    CAIRN_MAIL_FROM: 'Acme Cairn <cairn@acme.example>',
  });
  assert.equal(c.port, 9000);
  assert.equal(c.logLevel, 'debug');
  assert.equal(c.publicUrl, 'https://cairn.example.com');
  assert.equal(c.rateLimit, 50);
  assert.equal(c.webhookAllowPrivate, true);
  assert.equal(c.webhookRetentionDays, 30);
  assert.equal(c.webhookWorker, false);
  assert.equal(c.webhookConcurrency, 4);
  assert.equal(c.pgPreparedStatements, false);
  assert.equal(c.pgPoolSize, 40);
  assert.equal(c.pgConnectTimeoutMs, 2000);
  assert.equal(c.pgStatementTimeoutMs, 0);
  assert.equal(c.requestTimeoutMs, 0);
  assert.equal(c.metricsPort, 9464);
  assert.equal(c.metricsToken, 'm'.repeat(32));
  assert.deepEqual([c.signInAccountFailures, c.signInAddressFailures, c.signInLockoutSeconds], [5, 50, 60]);
  assert.deepEqual(c.trustProxy, ['10.0.0.0/8', '127.0.0.1']);
  assert.equal(loadConfig({ CAIRN_TRUST_PROXY: 'TRUE' }).trustProxy, true);
  assert.equal(c.smtpUrl, 'smtps://cairn:secret@mail.example.com:465');
  assert.equal(c.mailFrom, 'Acme Cairn <cairn@acme.example>');
  assert.equal(
    loadConfig({ CAIRN_PUBLIC_URL: 'https://cairn.example.com' }).mailFrom,
    'Cairn <no-reply@cairn.example.com>',
  );
});

test('a bad value names its variable', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ CAIRN_BOOTSTRAP_TOKEN: 'short' }, 'CAIRN_BOOTSTRAP_TOKEN'],
    [{ CAIRN_PUBLIC_URL: 'ftp://x' }, 'CAIRN_PUBLIC_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ CAIRN_RATE_LIMIT: '0' }, 'CAIRN_RATE_LIMIT'],
    [{ CAIRN_WEBHOOK_ALLOW_PRIVATE: 'maybe' }, 'CAIRN_WEBHOOK_ALLOW_PRIVATE'],
    [{ CAIRN_WEBHOOK_RETENTION_DAYS: '0' }, 'CAIRN_WEBHOOK_RETENTION_DAYS'],
    [{ CAIRN_WEBHOOK_WORKER: 'sometimes' }, 'CAIRN_WEBHOOK_WORKER'],
    [{ CAIRN_PG_POOL_SIZE: '0' }, 'CAIRN_PG_POOL_SIZE'],
    [{ CAIRN_PG_CONNECT_TIMEOUT_MS: '10' }, 'CAIRN_PG_CONNECT_TIMEOUT_MS'],
    [{ CAIRN_PG_STATEMENT_TIMEOUT_MS: '-1' }, 'CAIRN_PG_STATEMENT_TIMEOUT_MS'],
    [{ CAIRN_REQUEST_TIMEOUT_MS: 'a minute' }, 'CAIRN_REQUEST_TIMEOUT_MS'],
    [{ CAIRN_METRICS_PORT: 'nine' }, 'CAIRN_METRICS_PORT'],
    [{ CAIRN_METRICS_TOKEN: 'short' }, 'CAIRN_METRICS_TOKEN'],
    [{ CAIRN_WEBHOOK_CONCURRENCY: '0' }, 'CAIRN_WEBHOOK_CONCURRENCY'],
    [{ CAIRN_PG_PREPARED_STATEMENTS: 'off' }, 'CAIRN_PG_PREPARED_STATEMENTS'],
    [{ CAIRN_SIGN_IN_ACCOUNT_FAILURES: '0' }, 'CAIRN_SIGN_IN_ACCOUNT_FAILURES'],
    [{ CAIRN_SIGN_IN_LOCKOUT_SECONDS: '100000' }, 'CAIRN_SIGN_IN_LOCKOUT_SECONDS'],
    [{ CAIRN_TRUST_PROXY: 'the load balancer' }, 'CAIRN_TRUST_PROXY'],
    [{ CAIRN_TRUST_PROXY: '0' }, 'CAIRN_TRUST_PROXY'],
    [{ CAIRN_SMTP_URL: 'http://mail.example.com' }, 'CAIRN_SMTP_URL'],
    [{ CAIRN_MAIL_FROM: 'nobody' }, 'CAIRN_MAIL_FROM'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) =>
        e instanceof ConfigError && e.variable === variable && e.message.startsWith(`invalid ${variable}:`),
      variable,
    );
  }
});
