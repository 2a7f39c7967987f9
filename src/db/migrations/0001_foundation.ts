// Workspaces, users, API tokens, teams and areas (one "groups" table), their members, task statuses and
// labels, collections and project statuses. Every table carries workspace_id and every index that
// serves a request leads with it (docs/decisions.md §1), except the token hash lookup, which is how a request
// finds its workspace in the first place.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  // SQLite's integer primary key is the FTS5 rowid, so (workspace_id, id) is a unique key there.
  const rowKey = dialect === 'sqlite' ? 'unique' : 'primary key';
  const text = `
    create table instance_settings (
      key text primary key,
      value text not null
    );
    create table workspaces (
      id ${T.id} primary key,
      code integer not null unique,
      name text not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null
    );
    create table users (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      name text not null,
      email text not null,
      role text not null,
      last_accessed_at ${T.ts},
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      ${rowKey} (workspace_id, id),
      unique (workspace_id, email)
    );
    create table api_tokens (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      user_id ${T.id} not null,
      name text not null,
      token_hash text not null unique,
      last_used_at ${T.ts},
      revoked_at ${T.ts},
      created_at ${T.ts} not null,
      primary key (workspace_id, id),
      foreign key (workspace_id, user_id) references users (workspace_id, id)
    );
    create index api_tokens_user on api_tokens (workspace_id, user_id);
    create table groups (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      kind text not null,
      name text not null,
      public_id text not null,
      icon text,
      color text,
      privacy text not null,
      description text,
      archived_at ${T.ts},
      created_by_id ${T.id} not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id)
    );
    create index groups_by_updated on groups (workspace_id, kind, updated_at, id);
    create table group_members (
      workspace_id ${T.id} not null,
      group_id ${T.id} not null,
      user_id ${T.id} not null,
      role text not null,
      created_at ${T.ts} not null,
      primary key (workspace_id, group_id, user_id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete cascade,
      foreign key (workspace_id, user_id) references users (workspace_id, id)
    );
    create index group_members_by_user on group_members (workspace_id, user_id);
    create table task_statuses (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      group_id ${T.id} not null,
      name text not null,
      stage text not null,
      color text not null,
      position integer not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      primary key (workspace_id, id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete cascade
    );
    create index task_statuses_by_group on task_statuses (workspace_id, group_id, position);
    create table task_labels (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      group_id ${T.id} not null,
      name text not null,
      color text not null,
      position integer not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      primary key (workspace_id, id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id) on delete cascade
    );
    create index task_labels_by_group on task_labels (workspace_id, group_id, position);
    create table collections (
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      name text not null,
      created_by_id ${T.id} not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      primary key (workspace_id, id)
    );
    create index collections_by_created on collections (workspace_id, created_at, id);
    create table project_statuses (
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      name text not null,
      color text not null,
      icon text not null,
      position integer not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      primary key (workspace_id, id)
    );
    create index project_statuses_by_position on project_statuses (workspace_id, position);
  `;
  const search =
    dialect === 'sqlite'
      ? `create virtual table groups_fts using fts5 (name, content = '', contentless_delete = 1, tokenize = 'ascii');
         create virtual table users_fts using fts5 (name, content = '', contentless_delete = 1, tokenize = 'ascii')`
      : `alter table groups add column name_tsv tsvector not null default ''::tsvector;
         create index groups_name_tsv on groups using gin (workspace_id, name_tsv);
         alter table users add column name_tsv tsvector not null default ''::tsvector;
         create index users_name_tsv on users using gin (workspace_id, name_tsv)`;
  for (const statement of [...statements(text), ...statements(search)]) {
    await sql.raw(statement).execute(db);
  }
}
