// Idempotency keys (docs/decisions.md §8): the first answer to a POST sent with `Idempotency-Key`, kept for
// 24 hours per API token so that a retry (from any process) gets that answer instead of doing the work again.
// `status_code` is null while the first request is still running.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  const text = `
    create table idempotency_keys (
      token_id ${T.id} not null,
      key text not null,
      method text not null,
      path text not null,
      body_hash text not null,
      status_code integer,
      response_headers text,
      response_body text,
      created_at ${T.ts} not null,
      primary key (token_id, key)
    );
    create index idempotency_keys_by_time on idempotency_keys (created_at)
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
}
