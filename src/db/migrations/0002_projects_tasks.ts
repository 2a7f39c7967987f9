// Projects (with their teams), tasks (with their labels), posts, the event outbox and per-workspace
// counters for public ids.
//
// A task's `seq` is not stable: it is given a new, higher value on every change, so that "most recently
// changed first" is plain seq order. On SQLite it is the rowid, and so the FTS5 rowid: a search walks
// matches newest first and stops after one page (docs/search.md).
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  const rowKey = dialect === 'sqlite' ? 'unique' : 'primary key';
  const taskSeq =
    dialect === 'sqlite' ? 'integer primary key' : `bigint not null default nextval('task_seq')`;
  const text = `
    create table counters (
      workspace_id ${T.id} not null references workspaces (id),
      name text not null,
      value integer not null,
      primary key (workspace_id, name)
    );
    create table projects (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      public_id text not null,
      name text not null,
      slug text not null,
      icon text,
      color text,
      start_date ${T.ts},
      due_date ${T.ts},
      owner_id ${T.id},
      collection_id ${T.id},
      status_id ${T.id} not null,
      description_html text not null,
      description_markdown text not null,
      archived_at ${T.ts},
      created_by_id ${T.id} not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id),
      unique (workspace_id, slug),
      foreign key (workspace_id, owner_id) references users (workspace_id, id),
      foreign key (workspace_id, collection_id) references collections (workspace_id, id),
      foreign key (workspace_id, status_id) references project_statuses (workspace_id, id)
    );
    create index projects_by_created on projects (workspace_id, created_at, id);
    create table project_teams (
      workspace_id ${T.id} not null,
      project_id ${T.id} not null,
      group_id ${T.id} not null,
      position integer not null,
      primary key (workspace_id, project_id, group_id),
      foreign key (workspace_id, project_id) references projects (workspace_id, id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id)
    );
    create index project_teams_by_group on project_teams (workspace_id, group_id, project_id);
    create table tasks (
      seq ${taskSeq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      public_id integer not null,
      name text not null,
      description_html text not null,
      description_markdown text not null,
      due_date ${T.ts},
      completed_at ${T.ts},
      priority ${T.bool} not null,
      visibility text not null,
      created_by_id ${T.id} not null,
      project_id ${T.id},
      group_id ${T.id} not null,
      status_id ${T.id} not null,
      assigned_to_id ${T.id},
      repeat_id ${T.id},
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      deleted_at ${T.ts},
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id),
      foreign key (workspace_id, created_by_id) references users (workspace_id, id),
      foreign key (workspace_id, assigned_to_id) references users (workspace_id, id),
      foreign key (workspace_id, project_id) references projects (workspace_id, id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id),
      foreign key (workspace_id, status_id) references task_statuses (workspace_id, id)
    );
    create index tasks_live_by_seq on tasks (workspace_id, deleted_at, seq);
    create index tasks_by_seq on tasks (workspace_id, seq);
    create index tasks_by_group on tasks (workspace_id, group_id, seq);
    create index tasks_by_project on tasks (workspace_id, project_id, seq);
    create index tasks_by_status on tasks (workspace_id, status_id);
    create index tasks_by_visibility on tasks (workspace_id, visibility, deleted_at);
    create table task_label_links (
      workspace_id ${T.id} not null,
      task_id ${T.id} not null,
      label_id ${T.id} not null,
      primary key (workspace_id, task_id, label_id),
      foreign key (workspace_id, task_id) references tasks (workspace_id, id),
      foreign key (workspace_id, label_id) references task_labels (workspace_id, id) on delete cascade
    );
    create index task_label_links_by_label on task_label_links (workspace_id, label_id);
    create table posts (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      public_id text not null,
      content text not null,
      action text,
      action_value text,
      entity_type text not null,
      entity_id ${T.id} not null,
      parent_id ${T.id},
      owner_id ${T.id} not null,
      is_resolved ${T.bool} not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id),
      foreign key (workspace_id, owner_id) references users (workspace_id, id)
    );
    create index posts_by_entity on posts (workspace_id, entity_type, entity_id, created_at, id);
    create table events (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      type text not null,
      entity_type text not null,
      entity_id ${T.id} not null,
      actor_id ${T.id} not null,
      created_at ${T.ts} not null,
      ${rowKey} (workspace_id, id)
    );
    create index events_by_entity on events (workspace_id, entity_type, entity_id);
  `;
  const search =
    dialect === 'sqlite'
      ? `create virtual table projects_fts using fts5 (name, description, content = '', contentless_delete = 1, tokenize = 'ascii');
         create virtual table tasks_fts using fts5 (name, description, tags, content = '', contentless_delete = 1, tokenize = 'ascii');
         create table tasks_fts_terms (term text primary key) without rowid`
      : `alter table projects add column name_tsv tsvector not null default ''::tsvector;
         alter table projects add column description_tsv tsvector not null default ''::tsvector;
         create index projects_name_tsv on projects using gin (workspace_id, name_tsv);
         create index projects_description_tsv on projects using gin (workspace_id, description_tsv);
         alter table tasks add column name_tsv tsvector not null default ''::tsvector;
         alter table tasks add column description_tsv tsvector not null default ''::tsvector;
         create index tasks_name_tsv on tasks using gin (workspace_id, name_tsv);
         create index tasks_description_tsv on tasks using gin (workspace_id, description_tsv)`;
  const before = dialect === 'postgres' ? ['create sequence task_seq'] : [];
  for (const statement of [...before, ...statements(text), ...statements(search)]) {
    await sql.raw(statement).execute(db);
  }
}
