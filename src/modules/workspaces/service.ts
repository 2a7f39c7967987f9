// Creating a workspace: the workspace, its owner, the owner's first API token and the default project
// statuses, all in one transaction. Used by the first start (bootstrap) and `cairn workspace create`.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Auth, now } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { SearchProvider } from '../../db/search/index.ts';
import { transaction } from '../../db/transaction.ts';
import type { DB } from '../../db/types.ts';
import { insertToken } from '../api-tokens/service.ts';
import { createDefaults } from '../project-statuses/service.ts';
import { presentUser } from '../users/present.ts';
import type { User } from '../users/schema.ts';
import { insertUser } from '../users/service.ts';
import * as repo from './repository.ts';

export interface NewWorkspace {
  name: string;
  ownerName: string;
  ownerEmail: string;
  /** Use this token instead of a random one (CAIRN_BOOTSTRAP_TOKEN). */
  token?: string;
}

export interface CreatedWorkspace {
  workspace: { id: string; name: string; createdAt: string };
  user: User;
  token: string;
}

export function createWorkspace(database: Database, input: NewWorkspace): Promise<CreatedWorkspace> {
  return transaction(database, (tx) => createWorkspaceIn(tx.db, database.search, input));
}

/** createWorkspace inside the caller's transaction. */
async function createWorkspaceIn(
  trx: Kysely<DB>,
  search: SearchProvider,
  input: NewWorkspace,
): Promise<CreatedWorkspace> {
  const at = now();
  const workspace = {
    id: randomUUID(),
    code: await repo.nextCode(trx),
    name: input.name.trim(),
    created_at: at,
    updated_at: at,
  };
  await repo.insertWorkspace(trx, workspace);
  const user = await insertUser(trx, search, workspace.id, {
    name: input.ownerName,
    email: input.ownerEmail,
    role: 'owner',
  });
  const { token } = await insertToken(trx, workspace.id, user.id, 'Initial token', input.token);
  await createDefaults(trx, workspace.id);
  return {
    workspace: { id: workspace.id, name: workspace.name, createdAt: workspace.created_at },
    user: presentUser(user),
    token,
  };
}

/**
 * On an empty database, creates workspace "Default" with an owner and a token (docs/decisions.md §1). Returns
 * what it created, or null when the database already had a workspace.
 */
export async function bootstrap(
  database: Database,
  token: string | undefined,
): Promise<CreatedWorkspace | null> {
  if (await repo.anyWorkspace(database.db)) return null;
  return transaction(database, async (tx) => {
    if (!(await repo.claimBootstrap(tx.db, now()))) return null;
    return createWorkspaceIn(tx.db, database.search, {
      name: 'Default',
      ownerName: 'Owner',
      ownerEmail: 'owner@localhost',
      token,
    });
  });
}

/**
 * A workspace (the given one, or the oldest) acting as its first owner: for tools that write on the
 * owner's behalf (`cairn seed`).
 */
export async function workspaceOwner(database: Database, workspaceId?: string): Promise<Auth | null> {
  return authOf(await repo.firstOwner(database.db, workspaceId), 'cli');
}

/** A workspace's user as an actor, for work done on their behalf (webhook delivery); null when gone. */
export async function actingAs(db: Kysely<DB>, workspaceId: string, userId: string): Promise<Auth | null> {
  return authOf(await repo.workspaceUser(db, workspaceId, userId), 'webhook');
}

type ActorRow = Awaited<ReturnType<typeof repo.firstOwner>>;

function authOf(row: ActorRow, tokenId: string): Auth | null {
  if (!row) return null;
  return {
    workspace: { id: row.id, name: row.name, code: Number(row.code) },
    actor: { id: row.user_id, name: row.user_name, email: row.email, role: row.role, tokenId },
  };
}
