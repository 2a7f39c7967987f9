// One row of a workspace by its id: the lookup that every change to an existing row starts with
// (preconditions.ts loadById adds the lock and the If-Match comparison).
import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/** The tables whose rows are named by workspace and id. */
type ScopedTable = {
  [T in keyof DB]: DB[T] extends { workspace_id: string; id: string } ? T : never;
}[keyof DB];

/** Where a kind of row lives and what a lookup selects. */
export interface RowSource {
  /** The table, with an alias where `columns` names one ('users as u'). */
  from: ScopedTable | `${ScopedTable} as ${string}`;
  /** The columns to select; all when omitted. A hot statement names them (db/pg-statements.ts). */
  columns?: readonly string[];
}

// The table is chosen at run time, which Kysely's types cannot follow: the query is typed for one
// stand-in table here, and the row's type is the caller's (as db/listing.ts does for a page).
type Scoped = Kysely<Record<string, { workspace_id: string; id: string; public_id: string }>>;

/** What names a row in a route: its UUID, or its publicId. */
export type Ref = { id: string } | { publicId: string };

/** The row of `source` with this id in this workspace; `forUpdate` (PostgreSQL) locks it until the transaction ends. */
export function findById<R>(
  db: Kysely<DB>,
  source: RowSource,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<R | undefined> {
  return findOne<R>(db, source, workspaceId, 'id', id, forUpdate);
}

/** The row of `source` named by `ref` (UUID or publicId); `forUpdate` as findById. */
export function findByRef<R>(
  db: Kysely<DB>,
  source: RowSource,
  workspaceId: string,
  ref: Ref,
  forUpdate = false,
): Promise<R | undefined> {
  return 'id' in ref
    ? findOne<R>(db, source, workspaceId, 'id', ref.id, forUpdate)
    : findOne<R>(db, source, workspaceId, 'public_id', ref.publicId, forUpdate);
}

function findOne<R>(
  db: Kysely<DB>,
  source: RowSource,
  workspaceId: string,
  column: 'id' | 'public_id',
  value: string,
  forUpdate: boolean,
): Promise<R | undefined> {
  const q = (db as unknown as Scoped)
    .selectFrom(source.from)
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', value);
  const selected = source.columns ? q.select(source.columns as 'id'[]) : q.selectAll();
  return (forUpdate ? selected.forUpdate() : selected).executeTakeFirst() as Promise<R | undefined>;
}

/** The rows of `source` with these ids in this workspace, in one query (a page's or an event feed's). */
export function findByIds<R>(
  db: Kysely<DB>,
  source: RowSource,
  workspaceId: string,
  ids: readonly string[],
): Promise<R[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const q = (db as unknown as Scoped)
    .selectFrom(source.from)
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids);
  return (source.columns ? q.select(source.columns as 'id'[]) : q.selectAll()).execute() as Promise<R[]>;
}
