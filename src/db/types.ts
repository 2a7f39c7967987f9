// Row types as Kysely sees them. Column names are snake_case and never reach the API: each module's
// present.ts maps rows to response objects.
//
// A module may declare its own tables in its table.ts, adding them to DB by declaration merging
// (`declare module '../../db/types.ts'`; documents/table.ts is one), so that a new resource edits
// no shared file for its rows. The tables here are those of several modules.
//
// Timestamps are ISO 8601 strings on both databases (TEXT on SQLite; timestamptz on PostgreSQL, parsed
// back to ISO strings by the pg type parser set in db/index.ts). Booleans are 0/1 on SQLite and
// true/false on PostgreSQL: read them through `Boolean()`.
import type { Generated } from 'kysely';

export type Timestamp = string;

interface InstanceSettingsTable {
  key: string;
  value: string;
}

export interface WorkspacesTable {
  id: string;
  /** A small per-instance number; SQLite's task search prefixes indexed words with it (search/fts5.ts). */
  code: number;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WorkspaceRole = 'owner' | 'admin' | 'member' | 'guest';

export interface UsersTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  name: string;
  email: string;
  role: WorkspaceRole;
  last_accessed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** A PHC string (auth/passwords.ts); null until the person sets a password. */
  password_hash: string | null;
}

export interface ApiTokensTable {
  workspace_id: string;
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

/** A signed-in browser (migrations/0015_people.ts); ending it deletes the row. */
export interface SessionsTable {
  workspace_id: string;
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
  address: string | null;
}

export interface InvitationsTable {
  workspace_id: string;
  id: string;
  email: string;
  role: WorkspaceRole;
  name: string | null;
  token_hash: string;
  created_by_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_user_id: string | null;
  revoked_at: Timestamp | null;
}

export type PasswordTokenPurpose = 'reset' | 'setup';

/** A one-time link that sets a password. */
export interface PasswordTokensTable {
  workspace_id: string;
  id: string;
  user_id: string;
  purpose: PasswordTokenPurpose;
  token_hash: string;
  /** Who made the link: an owner, or null when the person asked (or the operator's CLI, the bootstrap). */
  created_by_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export type GroupKind = 'team' | 'area';
export type Privacy = 'workspace' | 'private';

export interface GroupsTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  kind: GroupKind;
  name: string;
  public_id: string;
  icon: string | null;
  color: string | null;
  privacy: Privacy;
  description: string | null;
  archived_at: Timestamp | null;
  created_by_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type MemberRole = 'owner' | 'member';

export interface GroupMembersTable {
  workspace_id: string;
  group_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Timestamp;
}

export type TaskStage = 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled';

export interface TaskStatusesTable {
  workspace_id: string;
  id: string;
  group_id: string;
  name: string;
  stage: TaskStage;
  color: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TaskLabelsTable {
  workspace_id: string;
  id: string;
  group_id: string;
  name: string;
  color: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CollectionsTable {
  workspace_id: string;
  id: string;
  name: string;
  created_by_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectStatusesTable {
  workspace_id: string;
  id: string;
  name: string;
  color: string;
  icon: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface CountersTable {
  workspace_id: string;
  name: string;
  value: number;
}

export interface ProjectsTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  public_id: string;
  name: string;
  slug: string;
  icon: string | null;
  color: string | null;
  start_date: Timestamp | null;
  due_date: Timestamp | null;
  owner_id: string | null;
  collection_id: string | null;
  status_id: string;
  description_html: string;
  description_markdown: string;
  archived_at: Timestamp | null;
  created_by_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface ProjectTeamsTable {
  workspace_id: string;
  project_id: string;
  group_id: string;
  position: number;
}

export type Visibility = 'workspace' | 'private';

export interface TasksTable {
  /** Renumbered on every change: seq order is change order (see migration 0002). */
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  public_id: number;
  name: string;
  description_html: string;
  description_markdown: string;
  due_date: Timestamp | null;
  completed_at: Timestamp | null;
  priority: boolean | number;
  visibility: Visibility;
  created_by_id: string;
  project_id: string | null;
  group_id: string;
  status_id: string;
  assigned_to_id: string | null;
  repeat_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

interface TaskLabelLinksTable {
  workspace_id: string;
  task_id: string;
  label_id: string;
}

export interface PostsTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  public_id: string;
  content: string;
  action: string | null;
  action_value: string | null;
  entity_type: string;
  entity_id: string;
  parent_id: string | null;
  owner_id: string;
  is_resolved: boolean | number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PostImagesTable {
  workspace_id: string;
  id: string;
  post_id: string;
  position: number;
  url: string;
  key: string;
  width: number;
  height: number;
}

export interface PostReactionsTable {
  workspace_id: string;
  id: string;
  post_id: string;
  user_id: string;
  reaction: string;
  created_at: Timestamp;
}

export type DateUnit = 'days' | 'weeks' | 'months';
export type DateDirection = 'before' | 'after';
export type DateEvent = 'task_created' | 'project_created' | 'project_start' | 'project_due';

export interface TaskTemplatesTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  public_id: string;
  name: string;
  description_html: string;
  description_markdown: string;
  priority: boolean | number;
  visibility: Visibility;
  status_id: string | null;
  status_stage: TaskStage | null;
  assigned_to_id: string | null;
  project_id: string | null;
  group_id: string;
  scope_type: 'area' | 'project_template';
  scope_id: string | null;
  parent_task_template_id: string | null;
  /** YYYY-MM-DD */
  due_date: string | null;
  start_date: string | null;
  relative_date_count: number | null;
  relative_date_unit: DateUnit | null;
  relative_date_direction: DateDirection | null;
  relative_date_event_type: DateEvent | null;
  created_by_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

interface TaskTemplateLabelsTable {
  workspace_id: string;
  template_id: string;
  label_id: string;
  position: number;
}

export interface ProjectTemplatesTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  public_id: string;
  name: string;
  description_html: string;
  description_markdown: string;
  color: string | null;
  icon: string | null;
  owned_by_area_id: string;
  owner_id: string | null;
  due_date: string | null;
  start_date: string | null;
  relative_due_date_count: number | null;
  relative_due_date_unit: DateUnit | null;
  relative_due_date_direction: DateDirection | null;
  relative_due_date_event_type: DateEvent | null;
  relative_start_date_count: number | null;
  relative_start_date_unit: DateUnit | null;
  relative_start_date_direction: DateDirection | null;
  relative_start_date_event_type: DateEvent | null;
  created_by_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  deleted_by_id: string | null;
}

interface ProjectTemplateAreasTable {
  workspace_id: string;
  template_id: string;
  group_id: string;
  position: number;
}

interface EventsTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  type: string;
  entity_type: string;
  entity_id: string;
  actor_id: string;
  created_at: Timestamp;
  /** The writing transaction's id on PostgreSQL, 0 on SQLite (migrations/0007_webhooks.ts). */
  tx: Generated<number>;
  /** `*.updated` only: JSON of the changed fields' values before the change (migrations/0013). */
  previous_attributes: string | null;
}

type SubscriptionState = 'active' | 'disabled';

export interface WebhookSubscriptionsTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  hook_url: string;
  event: string;
  secret: string;
  created_by_id: string;
  cursor_tx: number;
  cursor_seq: number;
  state: SubscriptionState;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  attempts: number;
  failing_since: Timestamp | null;
  next_attempt_at: Timestamp | null;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  created_at: Timestamp;
  /** The worker's bookkeeping: every lease and attempt moves it. Not a version. */
  updated_at: Timestamp;
  /** The version (ETag, If-Match): when hookUrl, event or the secret last changed (migration 0012). */
  changed_at: Timestamp;
  /** The secret before the last roll, still signing until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  replay: boolean | number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: Timestamp | null;
  created_at: Timestamp;
}

export interface WebhookReplaysTable {
  seq: Generated<number>;
  workspace_id: string;
  id: string;
  subscription_id: string;
  event_id: string;
  created_at: Timestamp;
  /** The type of the event replayed, for the log when the event is gone; null before migrations/0014. */
  event_type: string | null;
}

export interface IdempotencyKeysTable {
  token_id: string;
  key: string;
  method: string;
  path: string;
  body_hash: string;
  /** null while the first request runs. */
  status_code: number | null;
  /** JSON object of the headers replayed (content-type, etag, location). */
  response_headers: string | null;
  /** null when the answer held a secret shown only once (it is not kept). */
  response_body: string | null;
  created_at: Timestamp;
  /** When the request's change committed (set in its transaction); null before, or for a read. */
  committed_at: Timestamp | null;
}

export interface DB {
  instance_settings: InstanceSettingsTable;
  workspaces: WorkspacesTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  password_tokens: PasswordTokensTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  task_statuses: TaskStatusesTable;
  task_labels: TaskLabelsTable;
  collections: CollectionsTable;
  project_statuses: ProjectStatusesTable;
  counters: CountersTable;
  projects: ProjectsTable;
  project_teams: ProjectTeamsTable;
  tasks: TasksTable;
  task_label_links: TaskLabelLinksTable;
  posts: PostsTable;
  events: EventsTable;
  post_images: PostImagesTable;
  post_reactions: PostReactionsTable;
  task_templates: TaskTemplatesTable;
  task_template_labels: TaskTemplateLabelsTable;
  project_templates: ProjectTemplatesTable;
  project_template_areas: ProjectTemplateAreasTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_replays: WebhookReplaysTable;
  idempotency_keys: IdempotencyKeysTable;
}
