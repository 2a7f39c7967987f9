// Read helpers other modules call: which groups a caller sees, and groups, statuses and labels by id
// or name. Operations that change groups are in service.ts.
import { type Context, forgetAllMemos, keepForRequest, perRequest } from '../../context.ts';
import { retryTransaction } from '../../db/errors.ts';
import type { VisibilityRule } from '../../db/listing.ts';
import type { MemberRole, Privacy } from '../../db/types.ts';
import { canSeeGroup, groupScope } from './policy.ts';
import type { GroupAccess, GroupMembership, GroupRow, LabelRow, StatusRow } from './repository.ts';
import * as repo from './repository.ts';

export interface GroupVisibility {
  /** The caller sees every group of the workspace (owners, admins, or no group hidden from them). */
  all: boolean;
  visible: Set<string>;
  /** The visible groups that are teams (not areas): what a task's or project's teamId may name. */
  visibleTeams: Set<string>;
  /** Groups hidden from the caller: few in practice, which is what the task search excludes. */
  invisible: string[];
  /** Read with the caller's credential (knownGroupVisibility), not by the transaction itself. */
  fromCredential: boolean;
}

/** Which groups of the workspace the caller sees (asked several times a request, loaded once). */
export function groupVisibility(ctx: Context): Promise<GroupVisibility> {
  return perRequest(ctx, VISIBILITY, () => loadVisibility(ctx));
}

/**
 * The caller's visibility from its groups read with its token (api-tokens/service.ts authenticate),
 * for the request, its transactions included, for up to KEPT_MS (context.ts keepForRequest): a change
 * of the caller's groups applies to the requests authenticated after it committed, and to any later
 * read or transaction of a request authenticated longer ago than that (a body sent slowly). A write
 * that uses a team's statuses or labels checks the caller's access to the team again under the
 * team's lock (confirmAccess), so a create or a move cannot land in a team the caller was removed
 * from while it waited for the lock or in its queue.
 */
export function knownGroupVisibility(auth: Pick<Context, 'actor'>, rows: GroupMembership[]): void {
  keepForRequest(auth, VISIBILITY, visibilityOf(auth.actor, rows, true), KEPT_MS);
}

/** How long a request relies on the groups read with its credential: well past a create's queue. */
const KEPT_MS = 1_000;
const VISIBILITY = 'groups.visibility';

async function loadVisibility(ctx: Context): Promise<GroupVisibility> {
  return visibilityOf(
    ctx.actor,
    await repo.groupsWithMembership(ctx.db, ctx.workspace.id, ctx.actor.id),
    false,
  );
}

function visibilityOf(
  actor: Context['actor'],
  rows: GroupMembership[],
  fromCredential: boolean,
): GroupVisibility {
  const visible = new Set<string>();
  const visibleTeams = new Set<string>();
  const invisible: string[] = [];
  for (const r of rows) {
    if (canSeeGroup(actor, { privacy: r.privacy }, r.role ?? null)) {
      visible.add(r.id);
      if (r.kind === 'team') visibleTeams.add(r.id);
    } else invisible.push(r.id);
  }
  return { all: invisible.length === 0, visible, visibleTeams, invisible, fromCredential };
}

/** The caller's group rule (db/listing.ts): the policy check and its SQL form on alias g. */
export function groupRule(
  ctx: Context,
): Promise<VisibilityRule<{ privacy: Privacy; membership: MemberRole | null }>> {
  return perRequest(ctx, 'groups.rule', async () => {
    const condition = repo.visibleCondition(ctx.workspace.id, ctx.actor.id, groupScope(ctx.actor));
    return {
      sees: (g) => canSeeGroup(ctx.actor, { privacy: g.privacy }, g.membership),
      where: condition ? [condition] : [],
    };
  });
}

/** Groups by id, of any visibility: callers check it (presenting, or as a 400 for a body reference). */
export function groupsByIds(ctx: Pick<Context, 'db' | 'workspace'>, ids: string[]): Promise<GroupRow[]> {
  return repo.findGroupsByIds(ctx.db, ctx.workspace.id, [...new Set(ids)]);
}

/** Those of `ids` that are teams (not areas) the caller sees: for team references in bodies. */
export async function visibleTeamIds(ctx: Context, ids: string[]): Promise<Set<string>> {
  const { visibleTeams } = await groupVisibility(ctx);
  return new Set(ids.filter((id) => visibleTeams.has(id)));
}

/**
 * Ids of the teams (not areas) the caller sees whose name matches every word: for teamName filters,
 * which must never match through a team the caller cannot see.
 */
export async function teamIdsByName(ctx: Context, words: string[]): Promise<string[]> {
  const visibility = await groupVisibility(ctx);
  const ids = await repo.teamIds(ctx.db, ctx.workspace.id, repo.nameMatches(ctx.search, words, 'all'));
  return ids.filter((id) => visibility.visible.has(id));
}

/**
 * A team's statuses, in order, for writing a task or template with one: read under the group's lock
 * (PostgreSQL, FOR KEY SHARE until the transaction ends), so that a task or template written with one
 * of them cannot meet its removal half way: a removal that came first is seen (400, as after it), one
 * that comes later sees the task (409 in use, as before it). The caller's access to the group is
 * confirmed in the same statement (confirmAccess). Read once per request (a batch asks for every
 * entry); a rollback forgets it with the rest of the request's memos (context.ts).
 */
export function statusesOfGroup(ctx: Context, groupId: string): Promise<StatusRow[]> {
  return perRequest(ctx, `groups.statuses.${groupId}`, () =>
    listForUse<StatusRow>(ctx, 'task_statuses', groupId),
  );
}

/** A team's labels, in order, for writing a task or template with some: locked and read as statuses. */
export function labelsOfGroup(ctx: Context, groupId: string): Promise<LabelRow[]> {
  return perRequest(ctx, `groups.labels.${groupId}`, () => listForUse<LabelRow>(ctx, 'task_labels', groupId));
}

async function listForUse<R extends StatusRow | LabelRow>(
  ctx: Context,
  table: 'task_statuses' | 'task_labels',
  groupId: string,
): Promise<R[]> {
  const { rows, access, stale } = await repo.listWithAccess<R>(
    ctx.db,
    table,
    ctx.workspace.id,
    groupId,
    ctx.actor.id,
    ctx.dialect === 'postgres',
  );
  if (stale) {
    // What changed may be the caller's access too: the next attempt reads the groups itself.
    forgetAllMemos(ctx.actor);
    throw retryTransaction('the group changed while its lock was waited for');
  }
  await confirmAccess(ctx, groupId, access);
  return rows;
}

/**
 * Whether the caller sees the group as the request's visibility says, by its access read under the
 * group's lock. The visibility may be older than the lock (knownGroupVisibility, or read at the
 * transaction's start), and the request may have decided on it already (a team it may write in):
 * when they differ, the transaction is run again (db/errors.ts retryTransaction) with every memo
 * forgotten, so it reads the groups anew. A group the visibility does not know is newer than it: read
 * with the credential, that is a difference too (unless there is no such group); read by the
 * transaction, the group is one it made (the seed makes teams and then their tasks) or one made since
 * its start, and nothing was decided on it.
 */
async function confirmAccess(ctx: Context, groupId: string, access: GroupAccess | undefined): Promise<void> {
  const visibility = await groupVisibility(ctx);
  const seen =
    visibility.visible.has(groupId) || (visibility.invisible.includes(groupId) ? false : undefined);
  const sees = access !== undefined && canSeeGroup(ctx.actor, { privacy: access.privacy }, access.membership);
  if (seen === sees) return;
  if (seen === undefined && (!visibility.fromCredential || access === undefined)) return;
  forgetAllMemos(ctx.actor);
  throw retryTransaction("the caller's access to a group changed during the request");
}

/** The labels of several groups at once (presenting a page of templates). */
export function labelsOfGroups(
  ctx: Pick<Context, 'db' | 'workspace'>,
  groupIds: string[],
): Promise<LabelRow[]> {
  return repo.labelsOf(ctx.db, ctx.workspace.id, [...new Set(groupIds)]);
}

/** The statuses of several groups at once, in order (presenting a page of templates). */
export function statusesOfGroups(
  ctx: Pick<Context, 'db' | 'workspace'>,
  groupIds: string[],
): Promise<StatusRow[]> {
  return repo.statusesOf(ctx.db, ctx.workspace.id, [...new Set(groupIds)]);
}

/** The visible areas (not teams) among ids: for area references in bodies. */
export async function visibleAreaIds(ctx: Context, ids: string[]): Promise<Set<string>> {
  const { visible, visibleTeams } = await groupVisibility(ctx);
  return new Set(ids.filter((id) => visible.has(id) && !visibleTeams.has(id)));
}

export function statusesByIds(ctx: Pick<Context, 'db' | 'workspace'>, ids: string[]): Promise<StatusRow[]> {
  return repo.statusesByIds(ctx.db, ctx.workspace.id, [...new Set(ids)]);
}
