// A replay asked for by hand (POST …/deliveries/{id}/retry) records the event type of the attempt it
// repeats, so its own attempt in the delivery log names that type even when the event is no longer
// kept. Before this the log fell back to the subscription's `event`, which for a pattern subscription
// (`*`, `task.*`) is no event type. Null on replays queued before this migration: they keep the
// fallback.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await sql`alter table webhook_replays add column event_type text`.execute(db);
}
