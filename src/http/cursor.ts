// Opaque keyset cursors (docs/decisions.md §5). A cursor carries the sort key of the last item of a page,
// encrypted and authenticated with AES-256-GCM under a key derived from the instance's secret, with a
// digest of the query that made it as the authenticated data. So a cursor reveals nothing (a task
// search's key is a seq, a counter shared by every workspace: readable, it would let one workspace
// watch another's activity), and one edited by hand, or replayed against another query (other
// filters, another endpoint, another workspace or caller), is 400 invalid_cursor. The secret lives in
// the database so that every server process shares it.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import type { Auth } from '../context.ts';
import type { KeyValue, Page, PageRequest } from '../db/keyset.ts';
import { AppError, invalidRequest } from './errors.ts';
import { DEFAULT_LIMIT } from './schemas.ts';

export interface Cursors {
  encode(scope: string, key: KeyValue[]): string;
  /** The sort key of a cursor made for this scope (of `arity` values, when given), or 400 invalid_cursor. */
  decode(scope: string, cursor: string, arity?: number): KeyValue[];
}

function digest(scope: string): Buffer {
  return createHash('sha256').update(scope).digest();
}

function badCursor(): AppError {
  return new AppError('invalid_cursor', 'The cursor is malformed, was altered, or belongs to another query', [
    { path: '/query/cursor', message: 'not a cursor of this query' },
  ]);
}

const IV = 12;
const TAG = 16;

export function createCursors(secret: string): Cursors {
  // A key object made once: given the bytes, every cipher would make one of its own (2 % of a list).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'cairn', 'cursor encryption v2', 32)));
  return {
    encode(scope, values) {
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(digest(scope));
      const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    decode(scope, cursor, arity) {
      if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
      const raw = Buffer.from(cursor, 'base64url');
      if (raw.length <= IV + TAG) throw badCursor();
      let parsed: unknown;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV)).setAAD(digest(scope));
        decipher.setAuthTag(raw.subarray(raw.length - TAG));
        const text = Buffer.concat([decipher.update(raw.subarray(IV, raw.length - TAG)), decipher.final()]);
        parsed = JSON.parse(text.toString('utf8'));
      } catch {
        throw badCursor();
      }
      if (!Array.isArray(parsed) || (arity !== undefined && parsed.length !== arity)) throw badCursor();
      if (!parsed.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw badCursor();
      }
      return parsed as KeyValue[];
    },
  };
}

/** Cuts the `fetchSize(limit)` rows a query fetched into a page, with the cursor after its last row. */
function toPage<R>(
  rows: R[],
  limit: number,
  cursors: Cursors,
  scope: string,
  keyOf: (row: R) => KeyValue[],
): Page<R> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return {
    data,
    hasMore,
    nextCursor: hasMore && last !== undefined ? cursors.encode(scope, keyOf(last)) : null,
  };
}

export interface PagingQuery {
  limit?: number;
  cursor?: string;
  offset?: number;
}

/**
 * The one paging helper of list and search routes: the page a request asks for, which the service
 * hands to the list kit (db/listing.ts). The cursor is bound to the endpoint, the workspace, the
 * caller and the filter (another query's cursor is 400 invalid_cursor) and is read here, before the
 * service runs; the kit checks that it carries as many values as its order. The limit's default
 * comes from the LimitQuery schema; offset and cursor together are 400.
 */
export function openPaging(
  cursors: Cursors,
  auth: Auth,
  endpoint: string,
  filter: unknown,
  q: PagingQuery,
): PageRequest {
  if (q.cursor !== undefined && q.offset !== undefined) {
    throw invalidRequest('/query/offset', 'offset cannot be combined with cursor');
  }
  const scope = JSON.stringify([endpoint, auth.workspace.id, auth.actor.id, filter ?? null]);
  const limit = q.limit ?? DEFAULT_LIMIT;
  const key = q.cursor !== undefined ? cursors.decode(scope, q.cursor) : undefined;
  return {
    limit,
    offset: q.offset,
    after(arity) {
      if (key !== undefined && key.length !== arity) throw badCursor();
      return key;
    },
    cut: (rows, keyOf) => toPage(rows, limit, cursors, scope, keyOf),
  };
}
