// People who sign in (docs/api.md "Sessions"): a password per user, browser sessions, invitations and
// one-time password links. Every secret a link or cookie carries is stored as its SHA-256 (long random
// values, like API tokens), so the lookup is one indexed equality and a copy of the database holds no
// usable cookie or link.
//
// - users.password_hash: a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) carrying its own
//   parameters, so they can be raised later and a sign-in with old ones re-hashes; null until the person
//   sets a password (an API-token-only user, an owner before setup).
// - sessions: one row per signed-in browser; ending a session deletes its row.
// - invitations: an owner's invitation by email and role; accepted_at / revoked_at end it.
// - password_tokens: one-time links that set a password: `reset` (asked by the person, made by an owner,
//   or by `cairn user reset-password`) and `setup` (the bootstrap owner's first password).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  const text = `
    alter table users add column password_hash text;
    create table sessions (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      user_id ${T.id} not null,
      token_hash text not null unique,
      created_at ${T.ts} not null,
      last_used_at ${T.ts} not null,
      expires_at ${T.ts} not null,
      user_agent text,
      address text,
      primary key (workspace_id, id),
      foreign key (workspace_id, user_id) references users (workspace_id, id)
    );
    create index sessions_by_user on sessions (workspace_id, user_id);
    create table invitations (
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      email text not null,
      role text not null,
      name text,
      token_hash text not null unique,
      created_by_id ${T.id} not null,
      created_at ${T.ts} not null,
      expires_at ${T.ts} not null,
      accepted_at ${T.ts},
      accepted_user_id ${T.id},
      revoked_at ${T.ts},
      primary key (workspace_id, id)
    );
    create index invitations_by_created on invitations (workspace_id, created_at, id);
    create table password_tokens (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      user_id ${T.id} not null,
      purpose text not null,
      token_hash text not null unique,
      created_by_id ${T.id},
      created_at ${T.ts} not null,
      expires_at ${T.ts} not null,
      used_at ${T.ts},
      primary key (workspace_id, id),
      foreign key (workspace_id, user_id) references users (workspace_id, id)
    );
    create index password_tokens_by_user on password_tokens (workspace_id, user_id)
  `;
  for (const statement of statements(text)) await sql.raw(statement).execute(db);
}
