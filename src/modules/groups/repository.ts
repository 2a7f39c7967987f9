// Teams and areas are one kind of row ("groups", told apart by kind), with their members, task statuses
// and task labels.
import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { defineOrder } from '../../db/keyset.ts';
import { type Condition, tableListing } from '../../db/listing.ts';
import { prepared } from '../../db/prepared.ts';
import type { MatchMode, PlainTarget, SearchProvider } from '../../db/search/index.ts';
import type {
  DB,
  GroupKind,
  GroupMembersTable,
  GroupsTable,
  MemberRole,
  Privacy,
  TaskLabelsTable,
  TaskStatusesTable,
} from '../../db/types.ts';
import type { UserRow } from '../users/repository.ts';
import type { GroupScope } from './policy.ts';

/** Teams' and areas' names in the text index (FTS5 table and tsvector column, made by the migrations). */
export const GROUP_TARGET = {
  table: 'groups',
  fts: 'groups_fts',
  fields: ['name'],
  tagged: false,
} as const satisfies PlainTarget;

export type GroupRow = Selectable<GroupsTable>;
export type MemberRow = Selectable<GroupMembersTable>;
export type StatusRow = Selectable<TaskStatusesTable>;
export type LabelRow = Selectable<TaskLabelsTable>;
export type MemberWithUser = MemberRow & Pick<UserRow, 'name' | 'email' | 'last_accessed_at'>;

const GROUP_COLUMNS = [
  'g.seq',
  'g.workspace_id',
  'g.id',
  'g.kind',
  'g.name',
  'g.public_id',
  'g.icon',
  'g.color',
  'g.privacy',
  'g.description',
  'g.archived_at',
  'g.created_by_id',
  'g.created_at',
  'g.updated_at',
] as const;

export async function insertGroup(db: Kysely<DB>, row: Omit<GroupRow, 'seq'>): Promise<GroupRow> {
  return db
    .insertInto('groups')
    .values(row)
    .returning(['seq'])
    .executeTakeFirstOrThrow()
    .then((r) => ({ ...row, seq: Number(r.seq) }));
}

export async function updateGroup(
  db: Kysely<DB>,
  workspaceId: string,
  id: string,
  changes: Partial<GroupRow>,
) {
  await db
    .updateTable('groups')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** By UUID or by publicId (case-insensitive), of one kind; `forUpdate` (PostgreSQL) locks it. */
export function findGroup(
  db: Kysely<DB>,
  workspaceId: string,
  kind: GroupKind,
  ref: { id: string } | { publicId: string },
  forUpdate = false,
): Promise<GroupRow | undefined> {
  let q = db
    .selectFrom('groups as g')
    .select(GROUP_COLUMNS)
    .where('g.workspace_id', '=', workspaceId)
    .where('g.kind', '=', kind);
  q = 'id' in ref ? q.where('g.id', '=', ref.id) : q.where('g.public_id', '=', ref.publicId.toUpperCase());
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

export function findGroupsByIds(db: Kysely<DB>, workspaceId: string, ids: string[]): Promise<GroupRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('groups as g')
    .select(GROUP_COLUMNS)
    .where('g.workspace_id', '=', workspaceId)
    .where('g.id', 'in', ids)
    .execute();
}

export async function publicIdTaken(db: Kysely<DB>, workspaceId: string, publicId: string, except?: string) {
  let q = db
    .selectFrom('groups')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('public_id', '=', publicId);
  if (except) q = q.where('id', '!=', except);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function publicIdsStartingWith(
  db: Kysely<DB>,
  workspaceId: string,
  prefix: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('groups')
    .select('public_id')
    .where('workspace_id', '=', workspaceId)
    .where('public_id', '>=', prefix)
    .where('public_id', '<', `${prefix}\u007f`)
    .execute();
  return rows.map((r) => r.public_id);
}

/** The groups a caller may see (policy.groupScope), as a condition on alias g. */
export function visibleCondition(workspaceId: string, userId: string, scope: GroupScope): Condition | null {
  if (scope === 'all') return null;
  const member = sql<SqlBool>`g.id in (select group_id from group_members
    where workspace_id = ${workspaceId} and user_id = ${userId})`;
  return scope === 'member_only' ? member : sql<SqlBool>`(g.privacy = 'workspace' or ${member})`;
}

export function membership(db: Kysely<DB>, workspaceId: string, groupId: string, userId: string) {
  return db
    .selectFrom('group_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
    .then((r) => r?.role ?? null);
}

export async function replaceMembers(
  db: Kysely<DB>,
  workspaceId: string,
  groupId: string,
  rows: MemberRow[],
) {
  await db
    .deleteFrom('group_members')
    .where('workspace_id', '=', workspaceId)
    .where('group_id', '=', groupId)
    .execute();
  if (rows.length > 0) await db.insertInto('group_members').values(rows).execute();
}

export function membersOf(
  db: Kysely<DB>,
  workspaceId: string,
  groupIds: string[],
): Promise<MemberWithUser[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('group_members as m')
    .innerJoin('users as u', (j) =>
      j.onRef('u.workspace_id', '=', 'm.workspace_id').onRef('u.id', '=', 'm.user_id'),
    )
    .select([
      'm.workspace_id',
      'm.group_id',
      'm.user_id',
      'm.role',
      'm.created_at',
      'u.name',
      'u.email',
      'u.last_accessed_at',
    ])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.group_id', 'in', groupIds)
    .orderBy('m.created_at')
    .orderBy('m.user_id')
    .execute();
}

// Column lists rather than `select *`, which PostgreSQL would not prepare (db/pg-statements.ts).
const STATUS_COLUMNS = [
  'workspace_id',
  'id',
  'group_id',
  'name',
  'stage',
  'color',
  'position',
  'created_at',
  'updated_at',
] as const;
const LABEL_COLUMNS = [
  'workspace_id',
  'id',
  'group_id',
  'name',
  'color',
  'position',
  'created_at',
  'updated_at',
] as const;

export function statusesOf(db: Kysely<DB>, workspaceId: string, groupIds: string[]): Promise<StatusRow[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('task_statuses')
    .select(STATUS_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('group_id', 'in', groupIds)
    .orderBy('position')
    .execute();
}

export function labelsOf(db: Kysely<DB>, workspaceId: string, groupIds: string[]): Promise<LabelRow[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('task_labels')
    .select(LABEL_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('group_id', 'in', groupIds)
    .orderBy('position')
    .execute();
}

/** A group's privacy and the caller's membership in it, as a statement read them. */
export interface GroupAccess {
  privacy: Privacy;
  membership: MemberRole | null;
}

/**
 * A group's statuses (or labels), in order, and in the same statement the caller's access to it. `access`
 * is undefined when there is no such group.
 *
 * `lock` (PostgreSQL) also locks the group FOR KEY SHARE until the transaction ends: the lock a foreign
 * key to it takes anyway, taken before its statuses and labels are used (groups/lookup.ts). A change
 * of the group (FOR UPDATE) waits for it, and it for the change. But a read joined to a lock reads the
 * snapshot taken before any wait for it: at READ COMMITTED only the locked row is read again, at its
 * newest version. So the statement reads the group twice, locked and not, and compares the two
 * versions (`xmin`, the transaction that wrote each): every change of a group's statuses, labels,
 * members or privacy updates the group's row under FOR UPDATE (groups/service.ts), so a change
 * committed after the snapshot leaves them different, and `stale` says the read must be made again,
 * in a new transaction (races-constraints.test.ts §10 and access-race.test.ts catch a read that is not).
 */
export async function listWithAccess<R extends StatusRow | LabelRow>(
  db: Kysely<DB>,
  table: ListTable,
  workspaceId: string,
  groupId: string,
  userId: string,
  lock = false,
): Promise<{ rows: R[]; access?: GroupAccess; stale: boolean }> {
  const columns = table === 'task_statuses' ? STATUS_COLUMNS : LABEL_COLUMNS;
  const found = await db
    .selectFrom('groups as g')
    .$if(lock, (q) =>
      q.innerJoin(
        (eb) =>
          eb
            .selectFrom('groups')
            .select(['id', sql<string>`xmin::text`.as('version')])
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', groupId)
            .forKeyShare()
            .as('k'),
        (j) => j.onRef('k.id', '=', 'g.id'),
      ),
    )
    .leftJoin('group_members as m', (j) =>
      j
        .onRef('m.workspace_id', '=', 'g.workspace_id')
        .onRef('m.group_id', '=', 'g.id')
        .on('m.user_id', '=', userId),
    )
    // The two tables' columns differ only in statuses' `stage`: typed as statuses, read as the table's.
    .leftJoin(`${table} as s` as 'task_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'g.workspace_id').onRef('s.group_id', '=', 'g.id'),
    )
    .select(['g.privacy as access_privacy', 'm.role as access_membership'])
    .select(lock ? sql<boolean>`k.version <> g.xmin::text`.as('stale') : sql<boolean>`false`.as('stale'))
    .select(columns.map((c) => `s.${c}` as const) as never as ['s.id'])
    .where('g.workspace_id', '=', workspaceId)
    .where('g.id', '=', groupId)
    .orderBy('s.position')
    .execute();
  const first = found[0];
  if (!first) return { rows: [], stale: false };
  const rows = found
    .filter((r) => r.id !== null)
    .map(({ access_privacy, access_membership, stale, ...row }) => row);
  return {
    rows: rows as never as R[],
    access: { privacy: first.access_privacy, membership: first.access_membership },
    stale: Boolean(first.stale),
  };
}

type ListTable = 'task_statuses' | 'task_labels';

/** Makes a group's statuses (or labels) exactly `rows`: updates kept ids, inserts new, deletes the rest. */
export async function replaceList<R extends StatusRow | LabelRow>(
  db: Kysely<DB>,
  table: ListTable,
  workspaceId: string,
  groupId: string,
  rows: R[],
  existingIds: string[],
): Promise<void> {
  const keep = new Set(rows.map((r) => r.id));
  const gone = existingIds.filter((id) => !keep.has(id));
  if (gone.length > 0) {
    await db
      .deleteFrom(table)
      .where('workspace_id', '=', workspaceId)
      .where('group_id', '=', groupId)
      .where('id', 'in', gone)
      .execute();
  }
  const existing = new Set(existingIds);
  for (const row of rows) {
    if (existing.has(row.id)) {
      const { workspace_id: _w, id: _i, group_id: _g, created_at: _c, ...changes } = row;
      await db
        .updateTable(table)
        .set(changes)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', row.id)
        .execute();
    }
  }
  const fresh = rows.filter((r) => !existing.has(r.id));
  if (fresh.length > 0)
    await db
      .insertInto(table)
      .values(fresh as never[])
      .execute();
}

/** GET /v1/teams/search: most recently changed first. */
export const GROUP_SEARCH = tableListing(
  defineOrder<GroupRow>([
    { ref: 'g.updated_at', dir: 'desc', key: (r) => r.updated_at },
    { ref: 'g.id', dir: 'desc', key: (r) => r.id },
  ]),
  (db, workspaceId) => db.selectFrom('groups as g').where('g.workspace_id', '=', workspaceId),
  GROUP_COLUMNS,
);

/** Teams, not areas: the first condition of a team search. */
export const IS_TEAM: Condition = sql<SqlBool>`g.kind = 'team'`;

/** Groups not archived. */
export const LIVE: Condition = sql<SqlBool>`g.archived_at is null`;

/** Groups whose name matches the words (every one, or any), as a condition on GROUP_SEARCH's rows. */
export function nameMatches(search: SearchProvider, words: string[], mode: MatchMode): Condition {
  return search.matches(GROUP_TARGET, 'g', [{ field: 'name', words }], mode);
}

/** A group of the workspace with the user's membership role in it (null when not a member). */
export interface GroupMembership {
  id: string;
  kind: GroupKind;
  privacy: Privacy;
  role: MemberRole | null;
}

/**
 * Every group of the workspace with the user's membership role in it (null when not a member).
 * Every request that checks visibility needs it: read with the token (api-tokens/repository.ts),
 * and by this query within a transaction, which reads what it relies on itself. Built once.
 */
export const groupsWithMembership = prepared((db: Kysely<DB>, workspaceId: string, userId: string) =>
  db
    .selectFrom('groups as g')
    .leftJoin('group_members as m', (j) =>
      j
        .onRef('m.workspace_id', '=', 'g.workspace_id')
        .onRef('m.group_id', '=', 'g.id')
        .on('m.user_id', '=', userId),
    )
    .select(['g.id', 'g.kind', 'g.privacy', 'm.role'])
    .where('g.workspace_id', '=', workspaceId),
);

/** Ids of the workspace's teams (not areas) meeting `condition` (nameMatches). */
export async function teamIds(
  db: Kysely<DB>,
  workspaceId: string,
  condition: RawBuilder<SqlBool>,
): Promise<string[]> {
  const rows = await db
    .selectFrom('groups as g')
    .select('g.id')
    .where('g.workspace_id', '=', workspaceId)
    .where('g.kind', '=', 'team')
    .where(condition)
    .execute();
  return rows.map((r) => r.id);
}

export function statusesByIds(db: Kysely<DB>, workspaceId: string, ids: string[]): Promise<StatusRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('task_statuses')
    .select(STATUS_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}
