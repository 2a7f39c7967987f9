import { type Insertable, type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { CountersUpsert } from '../../db/counters.ts';
import type { Dialect } from '../../db/index.ts';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import { prepared } from '../../db/prepared.ts';
import { groupBy } from '../../db/rows.ts';
import type { TaggedSource } from '../../db/search/fts5.ts';
import {
  type FieldQuery,
  type SearchColumns,
  type TaggedTarget,
  type TsvectorProvider,
  tag,
  taggedIndex,
} from '../../db/search/index.ts';
import { nextSeq } from '../../db/sequences.ts';
import type { DB, TasksTable } from '../../db/types.ts';
import type { EventsInsert } from '../../events/outbox.ts';
import { plainText } from '../../text/description.ts';

/**
 * The tasks' text index: tagged (db/search/index.ts); its FTS5 table, tsvector columns, terms and
 * words are the migrations' (0011's triggers number the fields in this order).
 */
const TASK_TARGET = {
  table: 'tasks',
  fts: 'tasks_fts',
  terms: 'task_terms',
  words: 'task_words',
  fields: ['name', 'description'],
  tagged: true,
} as const satisfies TaggedTarget;

export type TaskRow = Selectable<TasksTable>;

const COLUMNS = [
  't.seq',
  't.workspace_id',
  't.id',
  't.public_id',
  't.name',
  't.description_html',
  't.description_markdown',
  't.due_date',
  't.completed_at',
  't.priority',
  't.visibility',
  't.created_by_id',
  't.project_id',
  't.group_id',
  't.status_id',
  't.assigned_to_id',
  't.repeat_id',
  't.created_at',
  't.updated_at',
  't.deleted_at',
] as const;

/** A task's columns on alias t (tasks/expansions.ts selects them beside the expansions). */
export const TASK_COLUMNS = COLUMNS;

/**
 * Task searches and lists: most recently changed first, which is seq order (seq is renumbered on
 * every change), so a page is one index walk and the cursor is one number.
 */
export const TASK_LIST = tableListing(
  defineOrder<TaskRow>([{ ref: 't.seq', dir: 'desc', key: (r) => Number(r.seq) }]),
  (db, workspaceId) => db.selectFrom('tasks as t').where('t.workspace_id', '=', workspaceId),
  COLUMNS,
);

function findTasksBySeq(
  db: Kysely<DB>,
  workspaceId: string,
  seqs: number[] | RawBuilder<unknown>,
): Promise<TaskRow[]> {
  return db
    .selectFrom('tasks as t')
    .select(COLUMNS)
    .where('t.workspace_id', '=', workspaceId)
    .where('t.seq', 'in', Array.isArray(seqs) ? seqs : sql<number>`(${seqs})`)
    .execute();
}

/** The search of tasks with text: the tagged index, answering with TASK_LIST's rows (alias t). */
export const TASK_FTS: TaggedSource<TaskRow> = {
  target: TASK_TARGET,
  listing: TASK_LIST,
  alias: 't',
  bySeq: findTasksBySeq,
};

/** The filters of task searches, each a condition on TASK_LIST's rows (ids lower-case). */
export interface TaskFilter {
  /** Not deleted. */
  live?: boolean;
  groupId?: string;
  projectId?: string;
  statusId?: string;
  assignedToId?: string;
  labelId?: string;
  /** Changed at or after this instant, in the stored form. */
  updatedSince?: string;
}

export function taskConditions(f: TaskFilter): Condition[] {
  const where: Condition[] = [];
  if (f.live) where.push(sql<SqlBool>`t.deleted_at is null`);
  if (f.groupId) where.push(sql<SqlBool>`t.group_id = ${f.groupId}`);
  if (f.projectId) where.push(sql<SqlBool>`t.project_id = ${f.projectId}`);
  if (f.statusId) where.push(sql<SqlBool>`t.status_id = ${f.statusId}`);
  if (f.assignedToId) where.push(sql<SqlBool>`t.assigned_to_id = ${f.assignedToId}`);
  if (f.labelId) {
    where.push(sql<SqlBool>`exists (select 1 from task_label_links l where l.workspace_id = t.workspace_id
      and l.task_id = t.id and l.label_id = ${f.labelId})`);
  }
  if (f.updatedSince) where.push(sql<SqlBool>`t.updated_at >= ${f.updatedSince}`);
  return where;
}

/** Tasks related to one of `ids` (a related-name field of a search), or null when none can be. */
export function relatedTo(
  column: 'project_id' | 'group_id' | 'assigned_to_id',
  ids: string[],
): Condition | null {
  return ids.length > 0 ? sql<SqlBool>`${sql.ref(`t.${column}`)} in (${sql.join(ids)})` : null;
}

/** A text field's words, on PostgreSQL (SQLite searches tasks with TASK_FTS). */
export function textMatches(search: TsvectorProvider, query: FieldQuery): Condition {
  return search.matches(TASK_TARGET, 't', [query], 'all');
}

/** Tasks of these groups (the visibility rule; never empty). */
export function inGroups(ids: string[]): Condition {
  return sql<SqlBool>`t.group_id in (${sql.join(ids)})`;
}

/** Tasks open to the workspace, or private ones `userId` created or is assigned (the visibility rule). */
export function openTo(userId: string): Condition {
  return sql<SqlBool>`(t.visibility = 'workspace' or t.created_by_id = ${userId} or t.assigned_to_id = ${userId})`;
}

/**
 * A task's filter tokens in SQLite's search index (db/search/fts5.ts): its rare states and its
 * relations. The visibility rule's exclusions (visibility.ts) and the search's filters (search.ts)
 * name them through these same builders, so that what is written and what is asked cannot drift.
 */
export const TASK_TAGS = {
  group: (id: string) => tag('g', id),
  project: (id: string) => tag('p', id),
  creator: (id: string) => tag('c', id),
  assignee: (id: string) => tag('a', id),
  deleted: 'dead',
  private: 'vprivate',
};

function taskTags(row: TaskRow): string[] {
  const tags = [TASK_TAGS.group(row.group_id), TASK_TAGS.creator(row.created_by_id)];
  if (row.deleted_at !== null) tags.push(TASK_TAGS.deleted);
  if (row.visibility === 'private') tags.push(TASK_TAGS.private);
  if (row.project_id) tags.push(TASK_TAGS.project(row.project_id));
  if (row.assigned_to_id) tags.push(TASK_TAGS.assignee(row.assigned_to_id));
  return tags;
}

/** The tasks' search index: words of the name and description, and the tags of the visibility rule. */
export const TASK_INDEX = taggedIndex<TaskRow>(
  TASK_TARGET,
  (row) => ({ name: row.name, description: plainText(row.description_html) }),
  taskTags,
);

// `index` is the row's part of its search index entry (TASK_INDEX.columns): set in the same statement.
type Indexed<R> = R & { index: SearchColumns };
const withIndex = <R>({ index, ...row }: Indexed<R>) =>
  ({ ...row, ...index }) as unknown as Insertable<TasksTable>;

/**
 * Inserts rows in one statement, in order (so their seqs ascend in that order), and returns them with
 * their seq.
 */
export async function insertTasks(db: Kysely<DB>, rows: Indexed<Omit<TaskRow, 'seq'>>[]): Promise<TaskRow[]> {
  if (rows.length === 0) return [];
  const made = await db.insertInto('tasks').values(rows.map(withIndex)).returning(['id', 'seq']).execute();
  const seqs = new Map(made.map((r) => [r.id, Number(r.seq)]));
  return rows.map(({ index: _, ...row }) => ({ ...row, seq: seqs.get(row.id)! }));
}

/**
 * PostgreSQL: inserts rows as insertTasks does, with their events and the counters' move in the same
 * statement (data-modifying CTEs: one round trip where there were three), each row's publicId counted
 * back from the new value of the counter `publicIds` names, in order. The counters' rows stay locked
 * to the commit, as with addToCounters.
 */
export async function insertTasksWith(
  db: Kysely<DB>,
  rows: Indexed<Omit<TaskRow, 'seq' | 'public_id'>>[],
  writes: { events: EventsInsert; counters: CountersUpsert; publicIds: string },
): Promise<TaskRow[]> {
  const last = rows.length - 1;
  const made = await db
    .with('events_written', writes.events)
    .with('counters_moved', () => writes.counters)
    .insertInto('tasks')
    .values(
      rows.map((row, i) => ({
        ...withIndex(row),
        public_id: sql<number>`(select "value" from "counters_moved" where "name" = ${writes.publicIds}) - ${last - i}`,
      })),
    )
    .returning(['id', 'seq', 'public_id'])
    .execute();
  const saved = new Map(made.map((r) => [r.id, r]));
  return rows.map(({ index: _, ...row }) => {
    const { seq, public_id } = saved.get(row.id)!;
    return { ...row, seq: Number(seq), public_id: Number(public_id) };
  });
}

/** Inserts rows that already have their seq (`cairn seed` reserves them in bulk). */
export async function insertSeeded(db: Kysely<DB>, rows: Indexed<TaskRow>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('tasks').values(rows.map(withIndex)).execute();
}

export async function insertLabelLinks(
  db: Kysely<DB>,
  links: { workspace_id: string; task_id: string; label_id: string }[],
) {
  if (links.length > 0) await db.insertInto('task_label_links').values(links).execute();
}

/**
 * Applies changes and moves the task to the front of the change order, if the task is in the state
 * `from` (live: not deleted; deleted), so that a state change happens once however many requests
 * race for it. Returns the new seq, or null when the task was not in that state.
 */
export async function updateTask(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  id: string,
  from: 'live' | 'deleted',
  changes: Partial<Omit<TaskRow, 'seq'>>,
  index: SearchColumns = {},
): Promise<number | null> {
  const row = await db
    .updateTable('tasks')
    .set({ ...changes, ...(index as Partial<TasksTable>), seq: nextSeq(dialect, 'tasks') })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', from === 'live' ? 'is' : 'is not', null)
    .returning('seq')
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}

/** A task by id, the most frequent read: built once (db/prepared.ts). */
const taskById = prepared((db: Kysely<DB>, workspaceId: string, id: string) =>
  db
    .selectFrom('tasks as t')
    .select(COLUMNS)
    .where('t.workspace_id', '=', workspaceId)
    .where('t.id', '=', id),
);

/**
 * A task by id or publicId. `forUpdate` (PostgreSQL; SQLite's transactions already hold the write
 * lock) locks the row until the transaction ends, so the change is computed from the row as it is.
 */
export async function findTask(
  db: Kysely<DB>,
  workspaceId: string,
  ref: { id: string } | { publicId: number },
  forUpdate = false,
): Promise<TaskRow | undefined> {
  if ('id' in ref && !forUpdate) return (await taskById(db, workspaceId, ref.id))[0] as TaskRow | undefined;
  let q = db.selectFrom('tasks as t').select(COLUMNS).where('t.workspace_id', '=', workspaceId);
  q = 'id' in ref ? q.where('t.id', '=', ref.id) : q.where('t.public_id', '=', ref.publicId);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/** PostgreSQL: locks these tasks in id order (a batch takes its locks up front, in one order). */
export async function lockTasks(
  db: Kysely<DB>,
  workspaceId: string,
  refs: ({ id: string } | { publicId: number })[],
): Promise<void> {
  const ids = refs.flatMap((r) => ('id' in r ? [r.id] : []));
  const publicIds = refs.flatMap((r) => ('publicId' in r ? [r.publicId] : []));
  if (ids.length + publicIds.length === 0) return;
  await db
    .selectFrom('tasks')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(publicIds.length > 0 ? [eb('public_id', 'in', publicIds)] : []),
      ]),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
}

export function findTasksByIds(db: Kysely<DB>, workspaceId: string, ids: string[]): Promise<TaskRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tasks as t')
    .select(COLUMNS)
    .where('t.workspace_id', '=', workspaceId)
    .where('t.id', 'in', ids)
    .execute();
}

export async function labelIdsOf(
  db: Kysely<DB>,
  workspaceId: string,
  taskIds: string[],
): Promise<Map<string, string[]>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('task_label_links as l')
    .innerJoin('task_labels as tl', (j) =>
      j.onRef('tl.workspace_id', '=', 'l.workspace_id').onRef('tl.id', '=', 'l.label_id'),
    )
    .select(['l.task_id', 'l.label_id'])
    .where('l.workspace_id', '=', workspaceId)
    .where('l.task_id', 'in', taskIds)
    .orderBy('l.task_id')
    .orderBy('tl.position')
    .execute();
  return groupBy(
    rows,
    (r) => r.task_id,
    (r) => r.label_id,
  );
}

/**
 * Replaces a task's labels; answers the ones it had, in their team's order (as GET shows them: what a
 * task.updated event says they were), read by the same statement that removes them.
 */
export async function replaceLabels(
  db: Kysely<DB>,
  workspaceId: string,
  taskId: string,
  labelIds: string[],
): Promise<string[]> {
  const removed = await db
    .deleteFrom('task_label_links')
    .where('workspace_id', '=', workspaceId)
    .where('task_id', '=', taskId)
    .returning((eb) => [
      'label_id',
      eb
        .selectFrom('task_labels as tl')
        .select('tl.position')
        .whereRef('tl.workspace_id', '=', 'task_label_links.workspace_id')
        .whereRef('tl.id', '=', 'task_label_links.label_id')
        .as('position'),
    ])
    .execute();
  await insertLabelLinks(
    db,
    labelIds.map((label_id) => ({ workspace_id: workspaceId, task_id: taskId, label_id })),
  );
  return removed.sort((a, b) => Number(a.position) - Number(b.position)).map((r) => r.label_id);
}

/** How many tasks (deleted or not) use each of these statuses. */
export async function countByStatus(
  db: Kysely<DB>,
  workspaceId: string,
  statusIds: string[],
): Promise<Map<string, number>> {
  if (statusIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tasks')
    .select(['status_id', (eb) => eb.fn.countAll().as('n')])
    .where('workspace_id', '=', workspaceId)
    .where('status_id', 'in', statusIds)
    .groupBy('status_id')
    .execute();
  return new Map(rows.map((r) => [r.status_id, Number(r.n)]));
}

/** Tasks in these groups (deleted too unless liveOnly). */
export async function countInGroups(
  db: Kysely<DB>,
  workspaceId: string,
  groupIds: string[],
  liveOnly: boolean,
) {
  if (groupIds.length === 0) return 0;
  let q = db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('group_id', 'in', groupIds);
  if (liveOnly) q = q.where('deleted_at', 'is', null);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Private tasks that `userId` neither created nor is assigned to, outside `exceptGroups`, optionally
 * only live ones and only those of one team or one project: what a member does not see there. The
 * predicate is written out literally (`visibility = 'private'`) so that a live count is answered from
 * the partial indexes of migration 0005 on both databases.
 */
export async function countPrivateHidden(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  where: { exceptGroups: string[]; liveOnly: boolean; groupId?: string; projectId?: string },
): Promise<number> {
  let q = db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where(sql<SqlBool>`visibility = 'private'`)
    .where('created_by_id', '!=', userId)
    .where((eb) => eb.or([eb('assigned_to_id', 'is', null), eb('assigned_to_id', '!=', userId)]));
  if (where.liveOnly) q = q.where('deleted_at', 'is', null);
  if (where.groupId !== undefined) q = q.where('group_id', '=', where.groupId);
  if (where.projectId !== undefined) q = q.where('project_id', '=', where.projectId);
  if (where.exceptGroups.length > 0) q = q.where('group_id', 'not in', where.exceptGroups);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
