// Opens the database named by DATABASE_URL: SQLite (node:sqlite) for a file: URL or nothing, PostgreSQL
// (pg) for postgres:// URLs. Everything above this file uses the same Kysely queries for both; the few
// differences (full-text search, row locking) sit behind `Database.search` and `Database.dialect`.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { prepareStatements } from './pg-statements.ts';
import { createSearch, type SearchProvider } from './search/index.ts';
import { NodeSqliteDialect, openSqlite } from './sqlite-driver.ts';
import { type OnStatement, timedDialect, timePgClient } from './timed.ts';
import type { DB } from './types.ts';

// pg is loaded when a PostgreSQL URL is opened: a server on SQLite never needs it (~1 MB).
const require = createRequire(import.meta.url);
const loadPg = () => require('pg') as typeof pg;

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  search: SearchProvider;
  /** Where it is, without credentials, for logs. */
  description: string;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` from any process (PostgreSQL LISTEN, on a connection
   * of its own that reconnects when lost); on SQLite, where one process writes, it never calls. The
   * returned function stops listening. Every listener of a channel shares one connection (the webhook
   * worker and the live streams of a process: one LISTEN connection, not one each).
   */
  listen(channel: string, onNotify: () => void): () => Promise<void>;
  /**
   * PostgreSQL only: the pool, for work that needs a driver client of its own (cairn import's COPY,
   * which Kysely cannot send).
   */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (tests each get a fresh one). */
  schema?: string;
  poolSize?: number;
  /** PostgreSQL only: named prepared statements (pg-statements.ts); default on. */
  preparedStatements?: boolean;
  /** PostgreSQL only: how long to wait for a connection, from the pool or a new one (default 5 s). */
  connectTimeoutMs?: number;
  /** PostgreSQL only: the server's statement_timeout for every session (default: none). */
  statementTimeoutMs?: number;
  /** Called after every statement with its text and milliseconds (the server's metrics). */
  onStatement?: OnStatement;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** `file:path`, a plain path, or empty (the default ./data/cairn.db) to a filesystem path. */
export function sqlitePath(url: string | undefined): string {
  if (!url) return resolve('data/cairn.db');
  const path = url.startsWith('file:') ? url.slice('file:'.length) : url;
  return path === ':memory:' ? path : resolve(path);
}

const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;

/**
 * A timestamptz as PostgreSQL prints it in a UTC session (`0001-01-01 00:00:00+00`,
 * `2026-11-21 10:00:00.123+00`) to the ISO string SQLite stores. Written out rather than left to
 * `new Date(text)`, whose reading of that non-ISO form is not specified (years before 1000 among others).
 */
function timestampFromPg(text: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d:\d\d)(\.\d+)?\+00$/.exec(text);
  if (!m) return new Date(text).toISOString();
  const ms = (m[5] ?? '.000').padEnd(4, '0').slice(0, 4);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}${ms}Z`;
}

// Timestamps come back as the same ISO strings SQLite stores; counts as numbers.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ_OID) return timestampFromPg;
    if (oid === INT8_OID) return (v: string) => Number(v);
    return loadPg().types.getTypeParser(oid, format);
  },
};

export function openDatabase(url: string | undefined, options: OpenOptions = {}): Database {
  if (url && isPostgresUrl(url)) {
    const pool = new (loadPg().Pool)({
      connectionString: url,
      max: options.poolSize ?? 10,
      // Waiting for a connection ends, whether the pool is full or the database does not answer:
      // the request then fails with 503 (db/errors.ts isUnavailable) instead of hanging.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      types: pgTypes,
      ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
    });
    // UTC sessions, so timestamps print as +00 (timestampFromPg) whatever the server's zone or the URL's
    // options; the SET is queued ahead of the client's first query.
    pool.on('connect', (client) => {
      // A connection lost while a client is checked out (the database restarted, the network cut) is
      // emitted as an 'error' on the client, which the pool listens for only while it is idle: with
      // no listener it would kill the process. The query in flight gets the error either way.
      client.on('error', () => {});
      // JIT compiles a plan's expressions when its estimated cost is high (a count over a common
      // word): ~90 ms of compiling for a query that runs in less. Off, as for most OLTP servers.
      client.query("set time zone 'UTC'; set jit = off").catch(() => {});
      if (options.preparedStatements !== false) prepareStatements(client);
      if (options.onStatement) timePgClient(client, options.onStatement);
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
    });
    const parsed = new URL(url);
    return {
      db,
      dialect: 'postgres',
      search: createSearch('postgres'),
      description: `postgres://${parsed.host}${parsed.pathname}`,
      listen: sharedListen((channel, onNotify) => listenPg(url, channel, onNotify)),
      pool,
      close: () => db.destroy(),
    };
  }
  const path = sqlitePath(url);
  return sqliteDatabase(path, openSqlite(path), options.onStatement);
}

/**
 * A Database over a node:sqlite connection already open: openDatabase's, or one opened otherwise (the
 * doctor's read-only one, which must neither create the file nor set its journal mode).
 */
export function sqliteDatabase(
  path: string,
  connection: DatabaseSync,
  onStatement?: OpenOptions['onStatement'],
): Database {
  const db = new Kysely<DB>({ dialect: timedDialect(new NodeSqliteDialect(connection), onStatement) });
  return {
    db,
    dialect: 'sqlite',
    search: createSearch('sqlite'),
    description: `sqlite:${path}`,
    listen: () => async () => {},
    close: () => db.destroy(),
  };
}

type Listen = (channel: string, onNotify: () => void) => () => Promise<void>;

/**
 * One `listen` per channel for every listener: the first opens it, the last one's stop closes it. A
 * listener added while the connection is (re)connecting hears that connection's first wake-up, as
 * the first listener does.
 */
function sharedListen(open: Listen): Listen {
  const channels = new Map<string, { listeners: Set<() => void>; stop: () => Promise<void> }>();
  return (channel, onNotify) => {
    let shared = channels.get(channel);
    if (!shared) {
      const listeners = new Set<() => void>();
      const stop = open(channel, () => {
        for (const l of listeners) l();
      });
      shared = { listeners, stop };
      channels.set(channel, shared);
    }
    const entry = shared;
    const listener = () => onNotify();
    entry.listeners.add(listener);
    return async () => {
      if (!entry.listeners.delete(listener) || entry.listeners.size > 0) return;
      if (channels.get(channel) === entry) channels.delete(channel);
      await entry.stop();
    };
  };
}

/** How long the LISTEN connection may take to connect, and to close when stopped. */
const LISTEN_CONNECT_MS = 5000;
const LISTEN_END_MS = 1000;

/**
 * LISTEN on a dedicated connection, reconnecting a second after it is lost, until stopped. Bounded
 * everywhere: a database that accepts the connection and then says nothing (a cut network) would
 * otherwise hold the connect, and then the stop, forever.
 */
function listenPg(url: string, channel: string, onNotify: () => void): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = () => {
    const c = new (loadPg().Client)({
      connectionString: url,
      connectionTimeoutMillis: LISTEN_CONNECT_MS,
      // A connection whose network died without a word is found out by TCP keepalive, and replaced.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = c;
    let lost = false;
    const again = () => {
      if (lost) return;
      lost = true;
      c.removeAllListeners();
      c.on('error', () => {});
      c.end().catch(() => {});
      if (!stopped) retry = setTimeout(connect, 1000).unref();
    };
    c.on('error', again);
    c.on('end', again);
    c.on('notification', (n) => {
      if (n.channel === channel) onNotify();
    });
    c.connect()
      .then(() => c.query(`listen ${c.escapeIdentifier(channel)}`))
      // Whatever happened while the connection was down is picked up by this first wake-up.
      .then(() => onNotify())
      .catch(again);
  };
  connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    if (!c) return;
    c.removeAllListeners();
    c.on('error', () => {});
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LISTEN_END_MS);
    });
    await Promise.race([c.end().catch(() => {}), late]);
    clearTimeout(timer);
    // Not closed in time (the database does not answer): drop the socket. pg has no public way to.
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  };
}
