// Test fixtures: every test file gets its own database (a fresh SQLite file, or a fresh PostgreSQL
// schema when CAIRN_TEST_DATABASE=postgres), migrated, with one workspace, and drops it afterwards.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type Database, type OpenOptions, openDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { DB } from '../db/types.ts';
import type { App } from '../http/app-type.ts';
import { hashPassword, storePasswordHash } from '../modules/auth/passwords.ts';
import { SESSION_COOKIE } from '../modules/auth/sessions.ts';
import { readTypes } from '../modules/webhooks/patterns.ts';
import { type CreatedWorkspace, createWorkspace } from '../modules/workspaces/service.ts';
import { checkDeclared, watchAnswers } from './declared.ts';
import { regexQuotesIn } from './problem-text.ts';

export const onPostgres = process.env.CAIRN_TEST_DATABASE === 'postgres';

export interface TestDatabase {
  database: Database;
  drop(): Promise<void>;
}

/** `options.onStatement` sees every statement the database runs (its text and milliseconds). */
export async function openTestDatabase(
  dialect: 'sqlite' | 'postgres' = onPostgres ? 'postgres' : 'sqlite',
  options: Pick<OpenOptions, 'onStatement'> = {},
): Promise<TestDatabase> {
  if (dialect === 'postgres') {
    const url = process.env.TEST_POSTGRES_URL;
    if (!url) throw new Error('CAIRN_TEST_DATABASE=postgres needs TEST_POSTGRES_URL');
    const schema = `cairn_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const database = openDatabase(url, { ...options, schema, poolSize: 5 });
    return {
      database,
      async drop() {
        await database.close();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  const database = openDatabase(`file:${join(dir, 'test.db')}`, options);
  return {
    database,
    async drop() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` on a fresh, migrated database of the test pass's kind, dropped afterwards. */
export async function withDatabase(
  fn: (database: Database) => Promise<void>,
  options: Pick<OpenOptions, 'onStatement'> = {},
): Promise<void> {
  const { database, drop } = await openTestDatabase(undefined, options);
  try {
    await migrateToLatest(database);
    await fn(database);
  } finally {
    await drop();
  }
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON; tests assert its exact shape.
  body: any;
}

export interface Client {
  get(url: string, headers?: Record<string, string>): Promise<Response>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  delete(url: string, headers?: Record<string, string>): Promise<Response>;
  raw(options: {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    payload?: string | Buffer;
    headers?: Record<string, string>;
  }): Promise<Response>;
}

export function client(app: App, token: string | null): Client {
  return clientWith(app, token ? { authorization: `Bearer ${token}` } : {});
}

/** A client that sends these headers with every request (a request's own headers win). */
export function clientWith(app: App, auth: Record<string, string>): Client {
  watchAnswers(app);
  const send: Client['raw'] = async ({ method, url, payload, headers }) => {
    const res = await app.inject({ method, url, payload, headers: { ...auth, ...headers } });
    checkDeclared(app);
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      headers: res.headers as Response['headers'],
      body: type.includes('json') && res.body !== '' ? JSON.parse(res.body) : res.body,
    };
  };
  return {
    get: (url, headers) => send({ method: 'GET', url, headers }),
    delete: (url, headers) => send({ method: 'DELETE', url, headers }),
    post: (url, body, headers) =>
      send({
        method: 'POST',
        url,
        payload: body === undefined ? undefined : JSON.stringify(body),
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      }),
    raw: send,
  };
}

export interface Fixture {
  app: App;
  database: Database;
  /** The first workspace and its owner. */
  ws: CreatedWorkspace;
  owner: Client;
  anonymous: Client;
  /** Another workspace, made the way the CLI makes one. */
  newWorkspace(name?: string): Promise<{ ws: CreatedWorkspace; owner: Client }>;
  /** A user of the first workspace with this role, and a client holding their token. */
  newUser(
    role: 'owner' | 'admin' | 'member' | 'guest',
    name?: string,
  ): Promise<{ id: string; email: string; api: Client }>;
}

let userCount = 0;

/** Builds the app on a fresh database and tears it all down after the file's tests. */
export async function setup(
  dialect?: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
): Promise<Fixture> {
  const { database, drop } = await openTestDatabase(dialect);
  let app: App;
  try {
    await migrateToLatest(database);
    app = await buildApp({
      // Tests make thousands of requests a minute with one token; the rate limit's own test sets it.
      config: loadConfig({
        CAIRN_PUBLIC_URL: 'http://cairn.test',
        CAIRN_RATE_LIMIT: '1000000',
        CAIRN_RATE_LIMIT_UNAUTHENTICATED: '1000000',
        CAIRN_RATE_LIMIT_SEARCH: '1000000',
        ...env,
      }),
      database,
      logger: false,
    });
  } catch (error) {
    await drop();
    throw error;
  }
  const regexQuotes = watchProblemText(app);
  watchAnswers(app);
  after(async () => {
    checkDeclared(app);
    await app.close();
    await drop();
    assert.deepEqual(regexQuotes(), [], 'error answers that quote a regular expression');
  });
  const ws = await createWorkspace(database, {
    name: 'Acme',
    ownerName: 'Olive Owner',
    ownerEmail: 'olive@acme.test',
  });
  const owner = client(app, ws.token);
  return {
    app,
    database,
    ws,
    owner,
    anonymous: client(app, null),
    async newWorkspace(name = 'Other') {
      const other = await createWorkspace(database, {
        name,
        ownerName: `${name} Owner`,
        ownerEmail: `owner@${name.toLowerCase()}.test`,
      });
      return { ws: other, owner: client(app, other.token) };
    },
    async newUser(role, name) {
      userCount += 1;
      const display = name ?? `${role} ${userCount}`;
      const created = await owner.post('/v1/users', {
        name: display,
        email: `user${userCount}@acme.test`,
        role,
      });
      if (created.status !== 201) throw new Error(`cannot create user: ${JSON.stringify(created.body)}`);
      const token = await owner.post('/v1/api-tokens', { name: 'test', userId: created.body.id });
      if (token.status !== 201) throw new Error(`cannot create token: ${JSON.stringify(token.body)}`);
      return { id: created.body.id, email: created.body.email, api: client(app, token.body.token) };
    },
  };
}

/**
 * Every problem+json answer of the test app, checked for text that quotes a regular expression
 * (problem-text.ts): whatever a test asserted, the file fails at its end if one did.
 */
function watchProblemText(app: App): () => string[] {
  const found: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (typeof payload === 'string' && type.startsWith('application/problem+json')) {
      for (const quote of regexQuotesIn(JSON.parse(payload))) {
        found.push(`${request.method} ${request.url.slice(0, 200)}: ${quote}`);
      }
    }
    return payload;
  });
  return () => found;
}

/** Asserts a problem+json response with this status and code; returns the body. */
// biome-ignore lint/suspicious/noExplicitAny: the problem body, for tests to read errors[] from.
export function problem(res: Response, status: number, code: string): any {
  const detail = JSON.stringify(res.body);
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${detail}`);
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`expected application/problem+json, got ${res.headers['content-type']}`);
  }
  if (res.body?.code !== code) throw new Error(`expected code ${code}, got ${detail}`);
  if (
    res.body.status !== status ||
    typeof res.body.requestId !== 'string' ||
    typeof res.body.detail !== 'string'
  ) {
    throw new Error(`malformed problem: ${detail}`);
  }
  return res.body;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Creating and searching tasks as `as` (the task tests' shared shorthands). */
export function taskHelpers(as: Client) {
  const create = async (body: Record<string, unknown>) => {
    const res = await as.post('/v1/tasks?expand=none', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const search = async (qs: string) => {
    const res = await as.get(`/v1/tasks/search?expand=none&limit=100&${qs}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const ids = async (qs: string): Promise<string[]> =>
    (await search(qs)).data.map((t: { id: string }) => t.id);
  return { create, search, ids };
}

/**
 * The events feed's page for one resource (`GET /v1/events?entityId=`, as `as` sees it) once it holds
 * at least one event. The feed shows an event once every transaction begun before it has ended
 * (events/stream.ts), so a read right after a write may not see it yet.
 */
// biome-ignore lint/suspicious/noExplicitAny: parsed events, for tests to assert their exact shape.
export async function eventsOfEntity(as: Client, entityId: string, timeoutMs = 5_000): Promise<any[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await as.get(`/v1/events?entityId=${entityId}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (res.body.data.length > 0) return res.body.data;
    assert.ok(Date.now() < until, `no event of ${entityId} in the feed after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits until the webhook worker is done with a subscription for now: no turn holds it, and its
 * position is at the last event its `event` covers in its workspace (a name or a pattern, matched as
 * the worker matches it: webhooks/patterns.ts), so whatever it was going to send has
 * been sent. A negative check ("nothing more was delivered") waits for this, not for a while.
 */
export async function caughtUp(db: Kysely<DB>, subscriptionId: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const sub = await db
      .selectFrom('webhook_subscriptions')
      .select(['workspace_id', 'event', 'cursor_tx', 'cursor_seq', 'lease_owner'])
      .where('id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    // The types the worker reads for this `event` (a name, `*` or `task.*`): none to filter for `*`.
    const types = readTypes(sub.event);
    const last = await db
      .selectFrom('events')
      .select(['tx', 'seq'])
      .where('workspace_id', '=', sub.workspace_id)
      .$if(types.length > 0, (q) => q.where('type', 'in', types))
      .orderBy('tx', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const at = Number(sub.cursor_tx) === Number(last.tx) && Number(sub.cursor_seq) === Number(last.seq);
    if (sub.lease_owner === null && at) return;
    assert.ok(Date.now() < until, `the webhook worker did not finish with subscription ${subscriptionId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Tests: gives a user a password, as a one-time password link would (the hash stored directly).
 * Then signInClient signs them in through the API.
 */
export async function setUserPassword(
  database: Database,
  workspaceId: string,
  userId: string,
  password: string,
): Promise<void> {
  await storePasswordHash(database.db, workspaceId, userId, await hashPassword(password));
}

/** The `cairn_session` cookie's value in an answer's Set-Cookie, or undefined when it sets none. */
export function sessionCookieOf(res: Response): string | undefined {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return header?.slice(SESSION_COOKIE.length + 1).split(';')[0];
}

export interface SignedInClient {
  /** Sends the session cookie, and Cairn's own Origin as a browser on its pages does. */
  api: Client;
  /** The cookie's value (the session's secret). */
  cookie: string;
  /** The sign-in's answer: {user, workspace}. */
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON; tests assert its exact shape.
  body: any;
}

/** Signs in through POST /v1/auth/sign-in (the user needs a password: setUserPassword). */
export async function signInClient(
  app: App,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<SignedInClient> {
  const origin = new URL(app.cairn.config.publicUrl).origin;
  const res = await client(app, null).post('/v1/auth/sign-in', { email, password }, { origin, ...headers });
  const cookie = sessionCookieOf(res);
  if (res.status !== 200 || !cookie)
    throw new Error(`cannot sign in: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    api: clientWith(app, { cookie: `${SESSION_COOKIE}=${cookie}`, origin, ...headers }),
    cookie,
    body: res.body,
  };
}
