import type { Kysely, Selectable } from 'kysely';
import type { DB, WorkspacesTable } from '../../db/types.ts';

export type WorkspaceRow = Selectable<WorkspacesTable>;

export async function insertWorkspace(db: Kysely<DB>, row: WorkspaceRow): Promise<void> {
  await db.insertInto('workspaces').values(row).execute();
}

/** The next workspace code; the unique constraint turns a concurrent duplicate into a conflict. */
export async function nextCode(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.max('code').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export async function anyWorkspace(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Claims the one-time bootstrap; true for exactly one caller, however many processes start at once. */
export async function claimBootstrap(db: Kysely<DB>, at: string): Promise<boolean> {
  const result = await db
    .insertInto('instance_settings')
    .values({ key: 'bootstrapped_at', value: at })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * The first owner of a workspace (the given one, or the oldest), with the workspace. Reads users: the
 * CLI acts as that owner before any module's context exists.
 */
export function firstOwner(db: Kysely<DB>, workspaceId?: string) {
  let q = db
    .selectFrom('workspaces as w')
    .innerJoin('users as u', 'u.workspace_id', 'w.id')
    .select(['w.id', 'w.name', 'w.code', 'u.id as user_id', 'u.name as user_name', 'u.email', 'u.role'])
    .where('u.role', '=', 'owner')
    .orderBy('w.created_at')
    .orderBy('u.created_at')
    .limit(1);
  if (workspaceId) q = q.where('w.id', '=', workspaceId);
  return q.executeTakeFirst();
}

/** A user of a workspace, with the workspace: the identity a webhook subscription delivers as. */
export function workspaceUser(db: Kysely<DB>, workspaceId: string, userId: string) {
  return db
    .selectFrom('workspaces as w')
    .innerJoin('users as u', 'u.workspace_id', 'w.id')
    .select(['w.id', 'w.name', 'w.code', 'u.id as user_id', 'u.name as user_name', 'u.email', 'u.role'])
    .where('w.id', '=', workspaceId)
    .where('u.id', '=', userId)
    .executeTakeFirst();
}
