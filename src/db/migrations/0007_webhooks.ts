// The events feed and webhook delivery (docs/decisions.md §7).
//
// Events are read in (tx, seq) order. On SQLite writers are serialized, so seq is already commit order
// and tx stays 0. On PostgreSQL, seq is taken at insert, not at commit: a transaction can take seq 10,
// commit after another took 11, and a reader that had moved past 11 would never see 10. So each event
// also records its transaction id (tx), and readers see only events of transactions older than the
// oldest one still running (`pg_snapshot_xmin`), in (tx, seq) order: every event a reader has not seen
// yet then sorts after every event it has. A statement trigger NOTIFYs at commit so that workers in
// other processes wake without polling.
//
// Sync filters of the searches (updatedSince, assignedToId) get indexes of their own, so that "what
// changed since my last run" is an index range, not a scan of every task.
//
// A subscription is its own queue: a position in the stream (cursor_tx, cursor_seq), the state of the
// event at its head (attempts, failing_since, next_attempt_at) and a lease (lease_owner, lease_until)
// that lets one process at a time deliver it. Deliveries are the log of attempts; replays are attempts
// asked for by hand.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  const rowKey = dialect === 'sqlite' ? 'unique' : 'primary key';
  const tx =
    dialect === 'sqlite'
      ? 'alter table events add column tx integer not null default 0'
      : 'alter table events add column tx bigint not null default (pg_current_xact_id()::text::bigint)';
  const text = `
    ${tx};
    drop index events_by_entity;
    create index events_stream on events (workspace_id, tx, seq);
    create index events_stream_by_type on events (workspace_id, type, tx, seq);
    create index events_by_time on events (created_at);
    create index tasks_by_updated on tasks (workspace_id, updated_at);
    create index tasks_by_assignee on tasks (workspace_id, assigned_to_id, seq);
    create index projects_by_updated on projects (workspace_id, updated_at);
    create table webhook_subscriptions (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      hook_url text not null,
      event text not null,
      secret text not null,
      created_by_id ${T.id} not null,
      cursor_tx bigint not null,
      cursor_seq bigint not null,
      state text not null,
      disabled_reason text,
      disabled_at ${T.ts},
      attempts integer not null,
      failing_since ${T.ts},
      next_attempt_at ${T.ts},
      lease_owner text,
      lease_until ${T.ts},
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      ${rowKey} (workspace_id, id),
      foreign key (workspace_id, created_by_id) references users (workspace_id, id)
    );
    create index webhook_subscriptions_by_creator on webhook_subscriptions (workspace_id, created_by_id, created_at, id);
    create index webhook_subscriptions_due on webhook_subscriptions (state, next_attempt_at);
    create table webhook_deliveries (
      seq ${T.seq},
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      subscription_id ${T.id} not null,
      event_id ${T.id} not null,
      event_type text not null,
      attempt integer not null,
      replay ${T.bool} not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      next_attempt_at ${T.ts},
      created_at ${T.ts} not null,
      ${rowKey} (workspace_id, id)
    );
    create index webhook_deliveries_by_subscription on webhook_deliveries (workspace_id, subscription_id, created_at, id);
    create index webhook_deliveries_by_time on webhook_deliveries (created_at);
    create table webhook_replays (
      seq ${T.seq},
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      subscription_id ${T.id} not null,
      event_id ${T.id} not null,
      created_at ${T.ts} not null,
      ${rowKey} (workspace_id, id)
    );
    create index webhook_replays_by_subscription on webhook_replays (workspace_id, subscription_id, created_at)
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
  if (dialect === 'postgres') {
    // One notification per committing transaction that wrote events (NOTIFY folds repeats).
    await sql
      .raw(`create function cairn_events_notify() returns trigger language plpgsql as $$
        begin perform pg_notify('cairn_events', ''); return null; end $$`)
      .execute(db);
    await sql
      .raw(`create trigger events_notify after insert on events
        for each statement execute function cairn_events_notify()`)
      .execute(db);
  }
}
