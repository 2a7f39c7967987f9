// Idempotency-Key on POST (docs/decisions.md §8). The first request with a key runs and its answer is kept in
// the database for 24 hours with the token, method, path and a digest of the body, so a retry from any
// process gets the same status, headers and body without the work being done again
// (`Idempotent-Replayed: true`). The same key with another method, path or body is 422
// idempotency_key_reused; while the first request still runs it is 409 conflict whose `errors` names
// `/headers/idempotency-key` (STILL_RUNNING), the one 409 a client should retry with the same key
// (@cairn/client does). A 5xx is not kept (the retry runs again, unless its change had committed). Keys
// are 1–255 visible ASCII characters.
//
// The answer is stored just after the change committed, but the change marks the key committed in its
// own transaction (context.ts `committing`). A process that dies between the two leaves a committed key
// without an answer: a retry is then refused (409), never run again. A key left running and
// uncommitted (its process died before the commit) is taken over by a retry after IN_FLIGHT_MS.
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { now } from '../context.ts';
import * as store from '../db/idempotency.ts';
import type { Database } from '../db/index.ts';
import { transaction } from '../db/transaction.ts';
import type { DB } from '../db/types.ts';
import { AppError } from './errors.ts';

const KEEP_MS = 24 * 3600_000;
const IN_FLIGHT_MS = 60_000;
const PURGE_EVERY_MS = 3600_000;
const KEY = /^[\x21-\x7e]{1,255}$/;
/** Headers that are part of the answer; the rest (request id, rate limit) belong to each request. */
const REPLAYED = ['content-type', 'etag', 'location', 'skipped-task-templates'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer holds a secret shown once (a token, a signing secret): its body is not kept. `true`
     * for every success; a list of statuses for a route whose other successes hold none (subscribe:
     * its 201 shows the secret, an update's 200 does not, and is kept to be replayed).
     */
    secretInAnswer?: boolean | readonly number[];
  }
}

const claims = new WeakMap<FastifyRequest, { tokenId: string; key: string }>();

function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY.test(header)) {
    throw new AppError(
      'validation_failed',
      'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once',
      [{ path: '/headers/idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }],
    );
  }
  return header;
}

function reused(): AppError {
  return new AppError(
    'idempotency_key_reused',
    'This Idempotency-Key was used with another request (method, path or body); use a new key',
  );
}

/** Runs one write of a key's row (see registerIdempotency). */
type KeyWrite = <T>(fn: (db: Kysely<DB>) => Promise<T>) => Promise<T>;

export function registerIdempotency(app: FastifyInstance, database: Database): void {
  const { db } = database;
  // A key's claim and its kept answer are a statement each. On SQLite each was a commit of its own,
  // and so an fsync: an idempotent create made three. Through the group commit they share one with
  // each other and with the requests' transactions (db/group-commit.ts). PostgreSQL flushes
  // concurrent commits together by itself, and a statement is its cheapest transaction.
  const write: KeyWrite =
    database.dialect === 'sqlite'
      ? (fn) => transaction(database, (tx) => fn(tx.db), { group: true })
      : (fn) => fn(db);
  const preHandler = async (request: FastifyRequest, reply: FastifyReply) =>
    claimOrReplay(db, write, request, reply);
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    await keepAnswer(write, request, reply, payload, claim);
    return payload;
  };
  // Only a POST takes a key, so only POST routes get the hooks (a GET pays nothing for them). Route
  // hooks run after the global ones of their kind: the claim after every global preHandler (there are
  // none) and before rich-text.ts's (registered later, so appended after this), and the answer is
  // kept after etag.ts has tagged it.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [...hooksOf(route.preHandler), preHandler];
    route.onSend = [...hooksOf(route.onSend), onSend];
  });

  // Keys older than 24 hours are purged by whichever process gets there (it is the same work).
  const timer = setInterval(() => {
    const before = new Date(Date.now() - KEEP_MS).toISOString();
    store
      .purgeKeys(db, before, 10_000)
      .catch((error) => app.log.error({ err: error }, 'cannot purge idempotency keys'));
  }, PURGE_EVERY_MS).unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

/** A route's hooks of one kind as a list (Fastify takes one function or several). */
export function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : ([hooks].flat() as H[]);
}

/** Before a POST with a key runs: claim the key, or answer as its first request did. */
async function claimOrReplay(
  db: Kysely<DB>,
  write: KeyWrite,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (request.method !== 'POST' || !request.auth) return;
  const key = keyOf(request);
  if (key === undefined) return;
  const claim: store.Claim = {
    tokenId: request.auth.actor.tokenId,
    key,
    method: request.method,
    path: request.url,
    bodyHash: hash('sha256', JSON.stringify(request.body ?? null), 'base64url'),
  };
  const at = now();
  // The request's transaction marks the key committed (context.ts `committing`).
  const hold = () => {
    claims.set(request, claim);
    request.auth = { ...request.auth!, idempotency: { tokenId: claim.tokenId, key, claimedAt: at } };
  };
  if (await write((db) => store.claimKey(db, claim, at))) {
    hold();
    return;
  }
  const seen = await store.findKey(db, claim.tokenId, key);
  const age = seen ? Date.parse(at) - Date.parse(String(seen.created_at)) : 0;
  if (seen && age < KEEP_MS && seen.status_code !== null) return replay(seen, claim, reply);
  if (seen && age < KEEP_MS) refuseUnanswered(seen, claim, age);
  // Gone (purged between the two looks), expired, or abandoned by a process that died: take it over.
  const taken = await write((db) =>
    seen ? store.retakeKey(db, claim, seen, at) : store.claimKey(db, claim, at),
  );
  if (!taken) throw stillRunning();
  hold();
}

/** A key whose first request was answered: the same answer again, unless this is another request. */
function replay(seen: store.IdempotencyRow, claim: store.Claim, reply: FastifyReply): FastifyReply {
  if (!sameRequest(seen, claim)) throw reused();
  if (seen.response_body === null) {
    throw new AppError(
      'conflict',
      `The first request with this Idempotency-Key succeeded (${seen.status_code}); its answer held a secret that is shown only once, so it is not kept`,
    );
  }
  const headers = JSON.parse(seen.response_headers ?? '{}') as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.header('idempotent-replayed', 'true');
  return reply.code(seen.status_code!).send(seen.response_body);
}

/**
 * A key claimed but not answered: refused while its first request may still run or once its change
 * committed; one abandoned uncommitted past IN_FLIGHT_MS passes, to be taken over.
 */
function refuseUnanswered(seen: store.IdempotencyRow, claim: store.Claim, age: number): void {
  if (!sameRequest(seen, claim)) throw reused();
  if (age < IN_FLIGHT_MS) throw stillRunning();
  if (seen.committed_at !== null) {
    throw new AppError(
      'conflict',
      'The first request with this Idempotency-Key was carried out, but the server stopped before its answer was kept; read the resource to see the result',
    );
  }
}

function sameRequest(seen: store.IdempotencyRow, claim: store.Claim): boolean {
  return seen.method === claim.method && seen.path === claim.path && seen.body_hash === claim.bodyHash;
}

/**
 * The marker of "still running": the key's first request has not answered yet, so a retry with the same
 * key shortly gets its answer. The code stays `conflict` (docs/decisions.md §6); `errors` names the key,
 * which no other 409 does (a key whose first request committed without a kept answer, or whose answer
 * held a secret, is a 409 without `errors`: retrying it cannot help). A member of the Problem schema
 * every client already parses, rather than a header the document would have to declare on every 409.
 */
export const STILL_RUNNING = {
  path: '/headers/idempotency-key',
  message: 'is still running in another request; retry shortly with the same key',
};

function stillRunning(): AppError {
  return new AppError(
    'conflict',
    'A request with this Idempotency-Key is still running; retry shortly with the same key',
    [STILL_RUNNING],
  );
}

/** Whether an answer of this status holds a secret shown once, by the route's `secretInAnswer`. */
function holdsSecret(flag: boolean | readonly number[] | undefined, status: number): boolean {
  if (flag === true) return status < 300;
  return Array.isArray(flag) && flag.includes(status);
}

/** After a claimed request's answer is made: keep it for retries, or free the key after a 5xx. */
async function keepAnswer(
  write: KeyWrite,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  claim: { tokenId: string; key: string },
): Promise<void> {
  try {
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await write((db) => store.releaseKey(db, claim.tokenId, claim.key));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const secret = holdsSecret(request.routeOptions.config.secretInAnswer, reply.statusCode);
    const answer = { status: reply.statusCode, headers, body: secret ? null : payload };
    await write((db) => store.saveAnswer(db, claim.tokenId, claim.key, answer));
  } catch (error) {
    // The answer still goes out; a retry with this key waits out IN_FLIGHT_MS, then runs again.
    request.log.error({ err: error }, 'cannot keep the answer of an idempotent request');
  }
}
