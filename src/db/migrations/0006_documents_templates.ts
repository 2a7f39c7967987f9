// Documents (searchable like projects), post images and reactions, task templates (with their labels)
// and project templates (with the areas they are offered in).
//
// Document indexes: (…, deleted_at, updated_at, id) followed by every column a text-free search tests
// (team, visibility, creator), so that a total is counted from the index alone, never the rows, and
// SQLite walks a page in order (it takes `deleted_at is null` as an equality). PostgreSQL does not,
// and would sort every match; its pages walk the partial indexes of live documents instead, which
// queries reach by spelling `deleted_at is null` literally. 100,000 documents: a team's total 11 →
// 0.2 ms on SQLite and 50 → 2 ms on PostgreSQL; a member's whole total 369 → 18 ms on SQLite; a
// team's first page 30 → 2 ms and a common word's 97 → 2 ms on PostgreSQL.
//
// Templates keep their own dates as `YYYY-MM-DD` text (docs/decisions.md §4): they are calendar dates, not
// instants, and are resolved into a task's or project's timestamps only when something is made from
// the template (docs/templates.md). A task template's status has no foreign key: an area may remove
// a status a template names, and the template then falls back to its statusStage.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';
import { statements, types } from './ddl.ts';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const T = types(dialect);
  const rowKey = dialect === 'sqlite' ? 'unique' : 'primary key';
  const text = `
    create table documents (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      public_id text not null,
      name text not null,
      slug text not null,
      visibility text not null,
      group_id ${T.id} not null,
      description_html text not null,
      description_markdown text not null,
      created_by_id ${T.id} not null,
      last_edited_by_id ${T.id},
      last_edited_at ${T.ts},
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      deleted_at ${T.ts},
      deleted_by_id ${T.id},
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id),
      unique (workspace_id, slug),
      foreign key (workspace_id, group_id) references groups (workspace_id, id),
      foreign key (workspace_id, created_by_id) references users (workspace_id, id)
    );
    create index documents_by_updated
      on documents (workspace_id, deleted_at, updated_at, id, group_id, visibility, created_by_id);
    create index documents_by_group
      on documents (workspace_id, group_id, deleted_at, updated_at, id, visibility, created_by_id);
    create index documents_live_by_updated on documents (workspace_id, updated_at, id)
      where deleted_at is null;
    create index documents_live_by_group on documents (workspace_id, group_id, updated_at, id)
      where deleted_at is null;
    create table post_images (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      post_id ${T.id} not null,
      position integer not null,
      url text not null,
      key text not null,
      width integer not null,
      height integer not null,
      primary key (workspace_id, id),
      foreign key (workspace_id, post_id) references posts (workspace_id, id)
    );
    create index post_images_by_post on post_images (workspace_id, post_id, position);
    create table post_reactions (
      workspace_id ${T.id} not null,
      id ${T.id} not null,
      post_id ${T.id} not null,
      user_id ${T.id} not null,
      reaction text not null,
      created_at ${T.ts} not null,
      primary key (workspace_id, id),
      unique (workspace_id, post_id, user_id, reaction),
      foreign key (workspace_id, post_id) references posts (workspace_id, id),
      foreign key (workspace_id, user_id) references users (workspace_id, id)
    );
    create index posts_by_parent on posts (workspace_id, parent_id, created_at, id);
    create table task_templates (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      public_id text not null,
      name text not null,
      description_html text not null,
      description_markdown text not null,
      priority ${T.bool} not null,
      visibility text not null,
      status_id ${T.id},
      status_stage text,
      assigned_to_id ${T.id},
      project_id ${T.id},
      group_id ${T.id} not null,
      scope_type text not null,
      scope_id ${T.id},
      parent_task_template_id ${T.id},
      due_date text,
      start_date text,
      relative_date_count integer,
      relative_date_unit text,
      relative_date_direction text,
      relative_date_event_type text,
      created_by_id ${T.id} not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      deleted_at ${T.ts},
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id),
      foreign key (workspace_id, assigned_to_id) references users (workspace_id, id),
      foreign key (workspace_id, project_id) references projects (workspace_id, id)
    );
    create index task_templates_by_created on task_templates (workspace_id, created_at, id);
    create index task_templates_by_scope on task_templates (workspace_id, scope_id);
    create index task_templates_by_parent on task_templates (workspace_id, parent_task_template_id);
    create table task_template_labels (
      workspace_id ${T.id} not null,
      template_id ${T.id} not null,
      label_id ${T.id} not null,
      position integer not null,
      primary key (workspace_id, template_id, label_id),
      foreign key (workspace_id, template_id) references task_templates (workspace_id, id),
      foreign key (workspace_id, label_id) references task_labels (workspace_id, id) on delete cascade
    );
    create table project_templates (
      seq ${T.seq},
      workspace_id ${T.id} not null references workspaces (id),
      id ${T.id} not null,
      public_id text not null,
      name text not null,
      description_html text not null,
      description_markdown text not null,
      color text,
      icon text,
      owned_by_area_id ${T.id} not null,
      owner_id ${T.id},
      due_date text,
      start_date text,
      relative_due_date_count integer,
      relative_due_date_unit text,
      relative_due_date_direction text,
      relative_due_date_event_type text,
      relative_start_date_count integer,
      relative_start_date_unit text,
      relative_start_date_direction text,
      relative_start_date_event_type text,
      created_by_id ${T.id} not null,
      created_at ${T.ts} not null,
      updated_at ${T.ts} not null,
      deleted_at ${T.ts},
      deleted_by_id ${T.id},
      ${rowKey} (workspace_id, id),
      unique (workspace_id, public_id),
      foreign key (workspace_id, owned_by_area_id) references groups (workspace_id, id),
      foreign key (workspace_id, owner_id) references users (workspace_id, id)
    );
    create index project_templates_by_created on project_templates (workspace_id, created_at, id);
    create table project_template_areas (
      workspace_id ${T.id} not null,
      template_id ${T.id} not null,
      group_id ${T.id} not null,
      position integer not null,
      primary key (workspace_id, template_id, group_id),
      foreign key (workspace_id, template_id) references project_templates (workspace_id, id),
      foreign key (workspace_id, group_id) references groups (workspace_id, id)
    );
    create index project_template_areas_by_group on project_template_areas (workspace_id, group_id)
  `;
  const search =
    dialect === 'sqlite'
      ? `create virtual table documents_fts using fts5 (name, description, content = '', contentless_delete = 1, tokenize = 'ascii')`
      : `alter table documents add column name_tsv tsvector not null default ''::tsvector;
         alter table documents add column description_tsv tsvector not null default ''::tsvector;
         create index documents_name_tsv on documents using gin (workspace_id, name_tsv);
         create index documents_description_tsv on documents using gin (workspace_id, description_tsv)`;
  for (const statement of [...statements(text), ...statements(search)]) {
    await sql.raw(statement).execute(db);
  }
}
