// The stored answers of idempotent POSTs (migrations/0008_idempotency.ts); http/idempotency.ts decides.
import type { Kysely, Selectable } from 'kysely';
import type { DB, IdempotencyKeysTable } from './types.ts';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface Claim {
  tokenId: string;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
}

/** What a request that holds a key carries into its transaction. */
export interface ClaimRef {
  tokenId: string;
  key: string;
  claimedAt: string;
}

/** A key taken by a request that is running (no answer yet). */
function running(c: Claim, at: string) {
  return {
    method: c.method,
    path: c.path,
    body_hash: c.bodyHash,
    status_code: null,
    response_headers: null,
    response_body: null,
    created_at: at,
    committed_at: null,
  };
}

/** Takes the key for a first request; false when a row for it exists already. */
export async function claimKey(db: Kysely<DB>, c: Claim, at: string): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ token_id: c.tokenId, key: c.key, ...running(c, at) })
    .onConflict((oc) => oc.columns(['token_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findKey(db: Kysely<DB>, tokenId: string, key: string): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('token_id', '=', tokenId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Takes over a row that is expired, or whose first request never finished (its process died), if it
 * is still the row that was read (created_at unchanged): false when another request took it first.
 */
export async function retakeKey(
  db: Kysely<DB>,
  c: Claim,
  seen: IdempotencyRow,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set(running(c, at))
    .where('token_id', '=', c.tokenId)
    .where('key', '=', c.key)
    .where('created_at', '=', seen.created_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function saveAnswer(
  db: Kysely<DB>,
  tokenId: string,
  key: string,
  answer: { status: number; headers: Record<string, string>; body: string | null },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status_code: answer.status,
      response_headers: JSON.stringify(answer.headers),
      response_body: answer.body,
    })
    .where('token_id', '=', tokenId)
    .where('key', '=', key)
    .execute();
}

/**
 * Marks the key's change committed, inside that change's transaction, if the key is still the one this
 * request claimed (a takeover gives it a new created_at).
 */
export async function markCommitted(db: Kysely<DB>, claim: ClaimRef, at: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ committed_at: at })
    .where('token_id', '=', claim.tokenId)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.claimedAt)
    .execute();
}

/**
 * Gives a key back after a 5xx, so that a retry runs: unless its change committed before the failure
 * (the answer failed after the commit), when a retry must not do the work again and is refused.
 */
export async function releaseKey(db: Kysely<DB>, tokenId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('token_id', '=', tokenId)
    .where('key', '=', key)
    .where('committed_at', 'is', null)
    .execute();
}

/** Deletes up to `n` keys taken before `before`; how many went. */
export async function purgeKeys(db: Kysely<DB>, before: string, n: number): Promise<number> {
  const old = db.selectFrom('idempotency_keys').select('key').where('created_at', '<', before).limit(n);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .where('key', 'in', old)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
