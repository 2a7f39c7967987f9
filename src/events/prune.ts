// Retention: events older than CAIRN_WEBHOOK_RETENTION_DAYS are deleted (the webhook worker calls
// pruneEvents hourly), and each workspace's stream records how far that went, so that the feed can
// tell a reader whose position is older than what was deleted (`400 cursor_expired`) instead of
// silently skipping the events it missed.
//
// The record is the greatest position (tx, seq) deleted in the workspace, written in the transaction
// that deletes: a position before it has missed at least that event; one at or after it has missed
// nothing. It lives in instance_settings (`events_pruned:<workspace id>`), which stays behind when the
// data moves to another database (transfer/tables.ts), as the positions it is compared with do.
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { Position } from './stream.ts';

const CHUNK = 5000;
const KEY = 'events_pruned:';

/**
 * A position as 40 digits (tx then seq, 20 each): equal-length digit strings sort as the positions
 * do, so the database keeps the greater of two records with a plain comparison.
 */
function encode(p: Position): string {
  return String(p.tx).padStart(20, '0') + String(p.seq).padStart(20, '0');
}

function decode(value: string): Position {
  return { tx: Number(value.slice(0, 20)), seq: Number(value.slice(20)) };
}

export function isBefore(a: Position, b: Position): boolean {
  return a.tx < b.tx || (a.tx === b.tx && a.seq < b.seq);
}

/**
 * Deletes the events created before `before`, a chunk per transaction; how many went. The newest event
 * of the whole table always stays, however old: on SQLite `seq` is the rowid, which after the greatest
 * row is deleted starts again below positions readers hold (a webhook's, a stream's, a feed cursor),
 * and those readers would skip every new event. Keeping it costs one row.
 */
export async function pruneEvents(db: Kysely<DB>, before: string): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const old = trx
        .selectFrom('events')
        .select('seq')
        .where('created_at', '<', before)
        .where('seq', '<', (eb) => eb.selectFrom('events').select((e) => e.fn.max('seq').as('newest')))
        .limit(CHUNK);
      const gone = await trx
        .deleteFrom('events')
        .where('seq', 'in', old)
        .returning(['workspace_id', 'tx', 'seq'])
        .execute();
      const through = new Map<string, Position>();
      for (const row of gone) {
        const p = { tx: Number(row.tx), seq: Number(row.seq) };
        const seen = through.get(row.workspace_id);
        if (!seen || isBefore(seen, p)) through.set(row.workspace_id, p);
      }
      for (const [workspaceId, p] of through) await record(trx, workspaceId, p);
      return gone.length;
    });
    total += n;
    if (n < CHUNK) return total;
  }
}

/** Raises the workspace's record to `p`, never lowers it (two pruning processes may race). */
async function record(db: Kysely<DB>, workspaceId: string, p: Position): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ key: KEY + workspaceId, value: encode(p) })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({ value: eb.ref('excluded.value') }))
        .where('instance_settings.value', '<', (eb) => eb.ref('excluded.value')),
    )
    .execute();
}

/** The greatest position pruned from the workspace's stream; undefined when nothing was. */
export async function prunedThrough(db: Kysely<DB>, workspaceId: string): Promise<Position | undefined> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', KEY + workspaceId)
    .executeTakeFirst();
  return row ? decode(row.value) : undefined;
}
