// One resource's events in stream order (`GET /v1/events?entityId=`, docs/api.md "The events feed"):
// a task's history in the web app reads its own events without walking the workspace's whole stream.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await sql`create index events_by_entity on events (workspace_id, entity_id, tx, seq)`.execute(db);
}
