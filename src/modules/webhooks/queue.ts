// The webhook module's operations for the delivery worker (worker.ts): leasing due
// subscriptions and recording what became of each attempt. Each change is conditional on this process
// still holding the subscription's lease, so two processes never both move one subscription.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../../db/index.ts';
import { transaction } from '../../db/transaction.ts';
import type { DB } from '../../db/types.ts';
import { pruneEvents } from '../../events/prune.ts';
import type { Position } from '../../events/stream.ts';
import type { SubscriptionRow } from './repository.ts';
import * as repo from './repository.ts';

export type { SubscriptionRow } from './repository.ts';

const LEASE_MS = 60_000;

/** A subscription in good standing: active, nothing failing, nothing waiting (new, or revived). */
export const IN_GOOD_STANDING = {
  state: 'active',
  disabled_reason: null,
  disabled_at: null,
  attempts: 0,
  failing_since: null,
  next_attempt_at: null,
} as const satisfies Partial<SubscriptionRow>;

function plus(at: string, ms: number): string {
  return new Date(Date.parse(at) + ms).toISOString();
}

export async function claim(
  db: Kysely<DB>,
  dialect: Dialect,
  owner: string,
  at: string,
  n: number,
): Promise<SubscriptionRow[]> {
  return repo.claimDue(db, dialect, owner, at, plus(at, LEASE_MS), n);
}

export interface Attempt {
  eventId: string;
  eventType: string;
  attempt: number;
  replay: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
  /** When it was made, when it is recorded later (a batch of deliveries); default: the record's time. */
  at?: string;
}

/**
 * Logs an attempt and applies `changes` to the subscription, in one transaction, renewing the lease;
 * false when the lease is no longer this process's (then nothing is written).
 */
export async function record(
  database: Database,
  sub: SubscriptionRow,
  owner: string,
  at: string,
  attempt: Attempt | Attempt[] | null,
  changes: Partial<SubscriptionRow>,
): Promise<boolean> {
  const attempts = attempt === null ? [] : Array.isArray(attempt) ? attempt : [attempt];
  return transaction(database, async ({ db: trx }) => {
    // Giving the lease back (lease_owner null) ends it; anything else renews it.
    const releasing = 'lease_owner' in changes && changes.lease_owner === null;
    const held = await repo.updateHeld(trx, sub, owner, {
      ...changes,
      lease_until: releasing ? null : plus(at, LEASE_MS),
      updated_at: at,
    });
    if (!held || attempts.length === 0) return held;
    await repo.insertDeliveries(
      trx,
      attempts.map((a) => ({
        workspace_id: sub.workspace_id,
        id: randomUUID(),
        subscription_id: sub.id,
        event_id: a.eventId,
        event_type: a.eventType,
        attempt: a.attempt,
        replay: a.replay,
        status_code: a.status,
        duration_ms: a.durationMs,
        error: a.error,
        next_attempt_at: a.nextAttemptAt,
        created_at: a.at ?? at,
      })),
    );
    return true;
  });
}

/** The stream position a subscription has delivered up to. */
export function placeOf(sub: SubscriptionRow): Position {
  return { tx: Number(sub.cursor_tx), seq: Number(sub.cursor_seq) };
}

export function release(db: Kysely<DB>, sub: SubscriptionRow, owner: string, cursor: Position) {
  return repo.updateHeld(db, sub, owner, {
    lease_owner: null,
    lease_until: null,
    cursor_tx: cursor.tx,
    cursor_seq: cursor.seq,
  });
}

/** A 410 from the receiver: the subscription goes, with its log. */
export async function remove(database: Database, sub: SubscriptionRow): Promise<void> {
  await transaction(database, (tx) => repo.deleteSubscription(tx.db, sub.workspace_id, sub.id));
}

export function replays(db: Kysely<DB>, sub: SubscriptionRow) {
  return repo.replaysOf(db, sub.workspace_id, sub.id);
}

export function dropReplay(db: Kysely<DB>, sub: SubscriptionRow, replayId: string) {
  return repo.deleteReplay(db, sub.workspace_id, replayId);
}

/** Deletes events and attempts older than `before`, a chunk at a time; how many rows went. */
export async function prune(db: Kysely<DB>, before: string): Promise<number> {
  // Events go through events/prune.ts, which records how far each workspace's stream was pruned.
  let total = await pruneEvents(db, before);
  for (;;) {
    const n = await repo.pruneDeliveries(db, before, 5000);
    total += n;
    if (n < 5000) break;
  }
  return total;
}
