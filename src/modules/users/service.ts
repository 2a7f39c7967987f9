import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Context, changedAt, now } from '../../context.ts';
import { findById } from '../../db/by-id.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { type Condition, listPage } from '../../db/listing.ts';
import { plainIndex, type SearchProvider } from '../../db/search/index.ts';
import type { DB, WorkspaceRole } from '../../db/types.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { loadById } from '../../preconditions.ts';
import { canCreateUser, canUpdateUser, seesWholeDirectory } from './policy.ts';
import type { UserRow } from './repository.ts';
import * as repo from './repository.ts';

/** The users' search index (names: assigneeName, ownerName), written on creation and every rename. */
export const USER_INDEX = plainIndex<UserRow>(repo.USER_TARGET, (row) => ({ name: row.name }));

export interface NewUser {
  name: string;
  email: string;
  role: WorkspaceRole;
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Adds a user without any permission check: for workspace creation and the CLI. */
export async function insertUser(
  db: Kysely<DB>,
  search: SearchProvider,
  workspaceId: string,
  input: NewUser,
): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  if (await repo.findUserByEmail(db, workspaceId, email)) {
    throw new AppError('conflict', `A user with email ${email} already exists in this workspace`);
  }
  const at = now();
  const row = await repo.insertUser(db, {
    workspace_id: workspaceId,
    id: randomUUID(),
    name: input.name.trim(),
    email,
    role: input.role,
    last_accessed_at: null,
    created_at: at,
    updated_at: at,
  });
  await USER_INDEX.write({ db, search }, row);
  return row;
}

/** POST /v1/users with an id: name, email and role; a rename is searchable at once (assigneeName). */
export async function updateUser(
  ctx: Context,
  id: string,
  change: { name?: string; email?: string; role?: WorkspaceRole },
): Promise<UserRow> {
  const userId = uuidRef(id);
  // A role change may take every owner's lock (keepAnOwner): take those first, in id order, before the
  // target's, so that two owners demoting each other queue instead of deadlocking.
  if (change.role !== undefined && ctx.dialect === 'postgres')
    await repo.ownerIds(ctx.db, ctx.workspace.id, true);
  // Someone outside the caller's directory is not found, as a random id: a 403 would confirm them.
  const seen = userId ? await findInDirectory(ctx, userId) : undefined;
  const current = await loadById(ctx, repo.USERS, seen?.id, { forChange: true });
  if (!canUpdateUser(ctx.actor, current, change)) {
    throw forbidden('Only owners and admins change other people, and only owners change owners');
  }
  const changes: Partial<UserRow> = { updated_at: changedAt(current.updated_at) };
  if (change.name !== undefined) changes.name = change.name.trim();
  if (change.role !== undefined) changes.role = change.role;
  if (current.role === 'owner' && change.role !== undefined && change.role !== 'owner') {
    await keepAnOwner(ctx);
  }
  if (change.email !== undefined) {
    const email = normalizeEmail(change.email);
    const taken = await repo.findUserByEmail(ctx.db, ctx.workspace.id, email);
    if (taken && taken.id !== current.id)
      throw new AppError('conflict', `A user with email ${email} already exists`);
    changes.email = email;
  }
  await repo.updateUser(ctx.db, ctx.workspace.id, current.id, changes);
  const row = { ...current, ...changes };
  if (changes.name !== undefined) await USER_INDEX.write(ctx, row);
  return row;
}

/**
 * A workspace always keeps an owner: only an owner can repair roles, so demoting the last one would
 * lock everyone out of that for good. On PostgreSQL the owners' rows are locked while counting, so two
 * owners demoting each other at once cannot both succeed.
 */
async function keepAnOwner(ctx: Context): Promise<void> {
  const owners = await repo.ownerIds(ctx.db, ctx.workspace.id, ctx.dialect === 'postgres');
  if (owners.length <= 1) {
    throw new AppError(
      'conflict',
      "The workspace's last owner cannot stop being an owner; make another owner first",
    );
  }
}

export async function createUser(ctx: Context, input: NewUser): Promise<UserRow> {
  if (!canCreateUser(ctx.actor, input.role)) {
    throw forbidden(
      ctx.actor.role === 'admin'
        ? 'Only an owner can add another owner'
        : 'Only owners and admins can add users',
    );
  }
  return insertUser(ctx.db, ctx.search, ctx.workspace.id, input);
}

export async function getMe(ctx: Context): Promise<UserRow> {
  const row = await findById<UserRow>(ctx.db, repo.USERS, ctx.workspace.id, ctx.actor.id);
  if (!row) throw new AppError('unauthenticated', 'The token no longer has a user');
  return row;
}

/**
 * GET /v1/users/{id}: one person of the caller's directory, as GET /v1/users lists them. Anyone else
 * (another workspace's, or for a guest someone outside its groups) is not found, as a random id.
 */
export async function getUser(ctx: Context, ref: string): Promise<UserRow> {
  const id = uuidRef(ref);
  const row = id ? await findInDirectory(ctx, id) : undefined;
  if (!row) throw notFound('User');
  return row;
}

/** GET /v1/users: the directory the caller sees (docs/api.md), oldest first. */
export function listUsers(ctx: Context, page: PageRequest): Promise<Page<UserRow>> {
  return listPage(ctx, repo.USER_LIST, directory(ctx), page, false);
}

/** The caller's directory as conditions on alias u: everyone, or for a guest its groups' people. */
function directory(ctx: Context): Condition[] {
  return seesWholeDirectory(ctx.actor) ? [] : [repo.sharingGroupsWith(ctx.workspace.id, ctx.actor.id)];
}

/** Users of this workspace by id, for expansions (members, owners, assignees). */
export function usersByIds(ctx: Pick<Context, 'db' | 'workspace'>, ids: string[]): Promise<UserRow[]> {
  return repo.findUsers(ctx.db, ctx.workspace.id, [...new Set(ids)]);
}

/** Ids of this workspace's users whose name matches every word (assigneeName, ownerName). */
export function userIdsByName(ctx: Context, words: string[]): Promise<string[]> {
  return repo.userIdsWhere(ctx.db, ctx.workspace.id, repo.nameMatches(ctx.search, words));
}

export function findUserByEmail(
  ctx: Pick<Context, 'db' | 'workspace'>,
  email: string,
): Promise<UserRow | undefined> {
  return repo.findUserByEmail(ctx.db, ctx.workspace.id, normalizeEmail(email));
}

/**
 * The people among `ids` that the caller may name in a request (an assignee, an owner, a member, a
 * token's user): those of its directory, as GET /v1/users lists it. Anyone else is, to the caller, no
 * one: a guest cannot tell a real id outside its groups from a random one, nor learn that person's
 * name and email from the answer. Every person id a request carries goes through here.
 */
export function usersInDirectory(ctx: Context, ids: string[]): Promise<UserRow[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  return repo.findUsers(ctx.db, ctx.workspace.id, unique, directory(ctx));
}

/** One person the caller may name (usersInDirectory), or undefined as for an unknown id. */
export async function findInDirectory(ctx: Context, id: string): Promise<UserRow | undefined> {
  return (await usersInDirectory(ctx, [id]))[0];
}

export { touchUser } from './repository.ts';
