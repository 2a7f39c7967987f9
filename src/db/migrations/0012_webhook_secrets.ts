// Webhook subscriptions that a client changes (docs/integrations.md "Managing subscriptions"):
//
// - changed_at: the subscription's version (ETag, If-Match), moved when its hookUrl, event or secret
//   changes. updated_at stays the worker's bookkeeping (every lease, every attempt moves it), which is
//   no version: a client's If-Match would fail whenever a delivery happened in between.
// - previous_secret, previous_secret_expires_at: the secret before the last roll, which still signs
//   deliveries (a second `v1,` signature) until it expires, 24 hours after the roll.
//
// Existing subscriptions take their createdAt as their version (what their ETag already said).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  // SQLite adds a NOT NULL column only with a default; PostgreSQL sets NOT NULL once it is filled.
  const changedAt =
    dialect === 'sqlite'
      ? `alter table webhook_subscriptions add column changed_at ${T.ts} not null default ''`
      : `alter table webhook_subscriptions add column changed_at ${T.ts}`;
  const text = `
    ${changedAt};
    update webhook_subscriptions set changed_at = created_at;
    ${dialect === 'postgres' ? 'alter table webhook_subscriptions alter column changed_at set not null;' : ''}
    alter table webhook_subscriptions add column previous_secret text;
    alter table webhook_subscriptions add column previous_secret_expires_at ${T.ts}
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
}
