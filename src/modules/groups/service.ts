// Operations on teams and areas. Each runs inside the caller's transaction (ctx.db).
import { randomUUID } from 'node:crypto';
import { type Context, changedAt, now } from '../../context.ts';
import { type Page, type PageRequest, TEXT_TOTAL_CAP, type Total } from '../../db/keyset.ts';
import { type Condition, listPage } from '../../db/listing.ts';
import { lockDerived } from '../../db/locks.ts';
import { distinctWords } from '../../db/search/fold.ts';
import { type MatchMode, plainIndex } from '../../db/search/index.ts';
import { setArchived } from '../../db/state.ts';
import type { GroupKind, MemberRole, TaskStage } from '../../db/types.ts';
import { changedFrom } from '../../events/changes.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../http/errors.ts';
import { textRef } from '../../http/ids.ts';
import { checkVersion } from '../../preconditions.ts';
import * as tasks from '../tasks/service.ts';
import * as users from '../users/service.ts';
import { groupRule, groupVisibility } from './lookup.ts';
import { canCreateGroup, canEditGroup } from './policy.ts';
import { presentGroups } from './present.ts';
import type { GroupRow, LabelRow, MemberRow, StatusRow } from './repository.ts';
import * as repo from './repository.ts';
import type { AreaUpsertBody } from './schema.ts';

const NOUN: Record<GroupKind, string> = { team: 'Team', area: 'Area' };

const DEFAULT_STATUSES: { name: string; stage: TaskStage; color: string }[] = [
  { name: 'Backlog', stage: 'backlog', color: '#95a2b3' },
  { name: 'Todo', stage: 'unstarted', color: '#e2e2e2' },
  { name: 'In Progress', stage: 'started', color: '#f2c94c' },
  { name: 'Done', stage: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', stage: 'canceled', color: '#95a2b3' },
];
const STAGE_COLOR = Object.fromEntries(DEFAULT_STATUSES.map((s) => [s.stage, s.color])) as Record<
  TaskStage,
  string
>;
const LABEL_COLOR = '#bec2c8';

export interface VisibleGroup {
  row: GroupRow;
  membership: MemberRole | null;
}

/**
 * A group the caller may see, by UUID or publicId; anything else is 404. `forChange` locks it on
 * PostgreSQL until the transaction ends, so concurrent changes queue.
 */
export async function loadVisibleGroup(
  ctx: Context,
  kind: GroupKind,
  ref: string,
  forChange = false,
): Promise<VisibleGroup> {
  const lock = forChange && ctx.dialect === 'postgres';
  const row = await repo.findGroup(ctx.db, ctx.workspace.id, kind, textRef(ref), lock);
  if (!row) throw notFound(NOUN[kind]);
  const membership = await repo.membership(ctx.db, ctx.workspace.id, row.id, ctx.actor.id);
  if (!(await groupRule(ctx)).sees({ privacy: row.privacy, membership })) throw notFound(NOUN[kind]);
  if (forChange) checkVersion(ctx, kind, row.updated_at);
  return { row, membership };
}

/** The groups of `kind` among these ids (UUIDs) that ctx can see, in one query (event data). */
export async function loadVisibleGroups(ctx: Context, kind: GroupKind, ids: string[]): Promise<GroupRow[]> {
  const [rows, visibility] = await Promise.all([
    repo.findGroupsByIds(ctx.db, ctx.workspace.id, ids),
    groupVisibility(ctx),
  ]);
  return rows.filter((row) => row.kind === kind && visibility.visible.has(row.id));
}

async function loadEditableGroup(ctx: Context, kind: GroupKind, ref: string): Promise<GroupRow> {
  const { row, membership } = await loadVisibleGroup(ctx, kind, ref, true);
  if (!canEditGroup(ctx.actor, membership)) {
    throw forbidden(`Only workspace owners and admins, or owners of this ${kind}, can change it`);
  }
  return row;
}

/**
 * A publicId from the name: initials of several words, else its first three letters; made unique
 * under the workspace's lock (db/locks.ts), so parallel creates number on as sequential ones do.
 */
async function derivePublicId(ctx: Context, name: string): Promise<string> {
  const ascii = distinctWords(name)
    .map((w) => w.normalize('NFD').replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);
  const base =
    ascii.length > 1
      ? ascii
          .map((w) => w[0])
          .join('')
          .slice(0, 5)
      : (ascii[0] ?? '').slice(0, 3);
  const stem = base.toUpperCase() || 'G';
  await lockDerived(ctx, 'groups.public_id');
  const taken = new Set(await repo.publicIdsStartingWith(ctx.db, ctx.workspace.id, stem));
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n++) {
    const candidate = `${stem.slice(0, 10 - String(n).length)}${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

async function memberRows(
  ctx: Context,
  groupId: string,
  input: { id: string; role?: MemberRole }[],
  at: string,
) {
  const ids = input.map((m) => m.id.toLowerCase());
  // Only people the caller may name (users.usersInDirectory); anyone else reads as an unknown id.
  const found = new Set((await users.usersInDirectory(ctx, ids)).map((u) => u.id));
  const seen = new Set<string>();
  return input.map((m, i): MemberRow => {
    const id = m.id.toLowerCase();
    if (!found.has(id)) throw invalid(`members/${i}/id`, 'no user with this id in the workspace');
    if (seen.has(id)) throw invalid(`members/${i}/id`, 'listed twice');
    seen.add(id);
    return {
      workspace_id: ctx.workspace.id,
      group_id: groupId,
      user_id: id,
      role: m.role ?? 'member',
      created_at: at,
    };
  });
}

function listRows<R extends StatusRow | LabelRow>(
  field: 'taskStatuses' | 'taskLabels',
  input: { id?: string }[],
  existing: R[],
  make: (item: never, position: number, id: string, previous: R | undefined) => R,
): R[] {
  const byId = new Map(existing.map((r) => [r.id, r]));
  const seen = new Set<string>();
  return input.map((item, position) => {
    const id = item.id?.toLowerCase();
    if (id !== undefined) {
      if (!byId.has(id)) throw invalid(`${field}/${position}/id`, "not one of this group's entries");
      if (seen.has(id)) throw invalid(`${field}/${position}/id`, 'listed twice');
      seen.add(id);
    }
    return make(item as never, position, id ?? randomUUID(), id ? byId.get(id) : undefined);
  });
}

type StatusInput = { id?: string; name: string; stage: TaskStage; color?: string };
type LabelInput = { id?: string; name: string; color?: string };

async function writeStatuses(
  ctx: Context,
  groupId: string,
  input: StatusInput[],
  existing: StatusRow[],
  at: string,
) {
  // The list is checked first (an id that is not this group's is 400), then what it removes.
  const rows = listRows<StatusRow>(
    'taskStatuses',
    input,
    existing,
    (item: StatusInput, position, id, prev) => ({
      workspace_id: ctx.workspace.id,
      id,
      group_id: groupId,
      name: item.name.trim(),
      stage: item.stage,
      color: item.color ?? STAGE_COLOR[item.stage],
      position,
      created_at: prev?.created_at ?? at,
      updated_at: at,
    }),
  );
  const kept = new Set(rows.map((r) => r.id));
  await checkRemovable(
    ctx,
    existing.filter((s) => !kept.has(s.id)),
  );
  await repo.replaceList(
    ctx.db,
    'task_statuses',
    ctx.workspace.id,
    groupId,
    rows,
    existing.map((r) => r.id),
  );
}

/**
 * Statuses that tasks still use cannot be removed. The message says "in use", not how many: the
 * count would include private tasks the caller cannot see.
 */
async function checkRemovable(ctx: Context, removed: StatusRow[]): Promise<void> {
  const inUse = await tasks.countByStatus(
    ctx,
    removed.map((s) => s.id),
  );
  const busy = removed.find((s) => (inUse.get(s.id) ?? 0) > 0);
  if (busy) throw conflict(`Status "${busy.name}" is in use by tasks; move them to another status first`);
}

async function writeLabels(
  ctx: Context,
  groupId: string,
  input: LabelInput[],
  existing: LabelRow[],
  at: string,
) {
  const rows = listRows<LabelRow>('taskLabels', input, existing, (item: LabelInput, position, id, prev) => ({
    workspace_id: ctx.workspace.id,
    id,
    group_id: groupId,
    name: item.name.trim(),
    color: item.color ?? prev?.color ?? LABEL_COLOR,
    position,
    created_at: prev?.created_at ?? at,
    updated_at: at,
  }));
  await repo.replaceList(
    ctx.db,
    'task_labels',
    ctx.workspace.id,
    groupId,
    rows,
    existing.map((r) => r.id),
  );
}

/** The groups' search index (names), written by every path that names a group. */
export const GROUP_INDEX = plainIndex<GroupRow>(repo.GROUP_TARGET, (row) => ({ name: row.name }));

/**
 * A given publicId, when no other group holds it. The check and the derivation take the same lock, so
 * that two groups named alike at once get two codes, and two given the same code one 201 and one 409.
 */
async function checkPublicId(ctx: Context, publicId: string, except?: string): Promise<string> {
  const upper = publicId.toUpperCase();
  await lockDerived(ctx, 'groups.public_id');
  if (await repo.publicIdTaken(ctx.db, ctx.workspace.id, upper, except)) {
    throw conflict(`publicId ${upper} is already used by a team or area of this workspace`);
  }
  return upper;
}

/** POST /v1/teams and /v1/areas: create, or update when `id` is given (docs/decisions.md §3, §4). */
export async function upsertGroup(
  ctx: Context,
  kind: GroupKind,
  body: AreaUpsertBody,
): Promise<{ row: GroupRow; created: boolean }> {
  const at = now();
  if (body.id !== undefined) return { row: await updateGroup(ctx, kind, body.id, body, at), created: false };

  if (!canCreateGroup(ctx.actor)) throw forbidden('Guests cannot create teams or areas');
  if (body.name === undefined) throw invalid('name', 'is required when creating');
  const name = body.name.trim();
  const row = await repo.insertGroup(ctx.db, {
    workspace_id: ctx.workspace.id,
    id: randomUUID(),
    kind,
    name,
    public_id: body.publicId ? await checkPublicId(ctx, body.publicId) : await derivePublicId(ctx, name),
    icon: body.icon ?? null,
    color: body.color ?? null,
    privacy: body.privacy ?? 'workspace',
    description: kind === 'area' ? (body.description ?? null) : null,
    archived_at: null,
    created_by_id: ctx.actor.id,
    created_at: at,
    updated_at: at,
  });
  // The creator is always an owner; a given member list adds to that.
  const members = (body.members ?? []).filter((m) => m.id.toLowerCase() !== ctx.actor.id);
  await repo.replaceMembers(ctx.db, ctx.workspace.id, row.id, [
    {
      workspace_id: ctx.workspace.id,
      group_id: row.id,
      user_id: ctx.actor.id,
      role: 'owner',
      created_at: at,
    },
    ...(await memberRows(ctx, row.id, members, at)),
  ]);
  await writeStatuses(ctx, row.id, body.taskStatuses ?? DEFAULT_STATUSES, [], at);
  await writeLabels(ctx, row.id, body.taskLabels ?? [], [], at);
  await GROUP_INDEX.write(ctx, row);
  await recordEvent(ctx, `${kind}.created`, row.id, at);
  return { row, created: true };
}

async function updateGroup(ctx: Context, kind: GroupKind, ref: string, body: AreaUpsertBody, at: string) {
  const current = await loadEditableGroup(ctx, kind, ref);
  // The group's row is written by every change, members, statuses or labels alone included: a write
  // that read them under the group's lock tells by the row's version that they changed meanwhile
  // (repository.ts listWithAccess).
  const changes: Partial<GroupRow> = { updated_at: changedAt(current.updated_at, at) };
  if (body.name !== undefined) changes.name = body.name.trim();
  if (body.publicId !== undefined) changes.public_id = await checkPublicId(ctx, body.publicId, current.id);
  if (body.icon !== undefined) changes.icon = body.icon;
  if (body.color !== undefined) changes.color = body.color;
  if (body.privacy !== undefined) changes.privacy = body.privacy;
  if (kind === 'area' && body.description !== undefined) changes.description = body.description;
  await repo.updateGroup(ctx.db, ctx.workspace.id, current.id, changes);
  const row = { ...current, ...changes };

  if (body.members !== undefined) {
    await repo.replaceMembers(
      ctx.db,
      ctx.workspace.id,
      row.id,
      await memberRows(ctx, row.id, body.members, at),
    );
  }
  if (body.taskStatuses !== undefined) {
    const existing = await repo.statusesOf(ctx.db, ctx.workspace.id, [row.id]);
    await writeStatuses(ctx, row.id, body.taskStatuses, existing, at);
  }
  if (body.taskLabels !== undefined) {
    const existing = await repo.labelsOf(ctx.db, ctx.workspace.id, [row.id]);
    await writeLabels(ctx, row.id, body.taskLabels, existing, at);
  }
  if (changes.name !== undefined && changes.name !== current.name) await GROUP_INDEX.write(ctx, row);
  await recordEvent(ctx, `${kind}.updated`, row.id, at, await groupChanges(ctx, current, row));
  return row;
}

export async function archiveGroup(ctx: Context, kind: GroupKind, ref: string): Promise<GroupRow> {
  const row = await loadEditableGroup(ctx, kind, ref);
  if (row.archived_at !== null) return row; // archiving twice changes nothing
  const at = changedAt(row.updated_at);
  // Conditional on the current state: two archives at once archive (and tell) once.
  if (!(await setArchived(ctx.db, 'groups', ctx.workspace.id, row.id, true, at))) return row;
  const archived = { ...row, archived_at: at, updated_at: at };
  await recordEvent(ctx, `${kind}.updated`, row.id, at, await groupChanges(ctx, row, archived));
  return archived;
}

export async function unarchiveGroup(ctx: Context, kind: GroupKind, ref: string): Promise<GroupRow> {
  const row = await loadEditableGroup(ctx, kind, ref);
  const notArchived = () => new AppError('not_archived', `This ${kind} is not archived`);
  if (row.archived_at === null) throw notArchived();
  const at = changedAt(row.updated_at);
  if (!(await setArchived(ctx.db, 'groups', ctx.workspace.id, row.id, false, at))) throw notArchived();
  const unarchived = { ...row, archived_at: null, updated_at: at };
  await recordEvent(ctx, `${kind}.updated`, row.id, at, await groupChanges(ctx, row, unarchived));
  return unarchived;
}

/**
 * What a team.updated or area.updated event says changed (events/changes.ts): the group's own fields;
 * members, statuses and labels are expansions, whose change shows as updatedAt. The presenter asks no
 * query without expansions.
 */
async function groupChanges(ctx: Context, before: GroupRow, after: GroupRow) {
  const [was, is] = await presentGroups(ctx, [before, after], new Set());
  return changedFrom(was!, is!);
}

export interface TeamSearch {
  name?: string;
  mode: MatchMode;
  includeArchived: boolean;
}

/** GET /v1/teams/search: visible teams whose name matches, newest change first, and their count. */
export async function searchTeams(
  ctx: Context,
  q: TeamSearch,
  page: PageRequest,
): Promise<Page<GroupRow> & Total> {
  const words = distinctWords(q.name);
  const where: Condition[] = [repo.IS_TEAM, ...(await groupRule(ctx)).where];
  if (!q.includeArchived) where.push(repo.LIVE);
  if (words.length > 0) where.push(repo.nameMatches(ctx.search, words, q.mode));
  const cap = words.length > 0 ? TEXT_TOTAL_CAP : undefined;
  const { total, totalRelation, ...found } = await listPage(ctx, repo.GROUP_SEARCH, where, page, true, cap);
  return { ...found, total: total!, totalRelation: totalRelation! };
}
