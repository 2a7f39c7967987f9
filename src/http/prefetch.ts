// PostgreSQL: a read whose first statement needs only the caller's workspace starts beside the token
// lookup instead of after it (docs/architecture.md "The path of a request"). A get is then one round
// trip's wait where it was two: the lookup and the read run at once on two connections.
//
// A credential's workspace never changes (an API token's, a session's), so once one has
// authenticated, its workspace is remembered (by the credential's hash, never the secret) and the next
// request with it may start the route's read in that workspace before the lookup answers. Nothing changes about what is answered: the lookup still decides
// whether the caller is authenticated, the route still decides what the caller may see, and a read
// started for a workspace the lookup did not confirm is dropped unread. A credential that stopped
// working costs the one read it started, and is then forgotten.
//
// Not on SQLite: node:sqlite runs statements synchronously on the main thread, so there is nothing to
// overlap.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, Dialect } from '../db/index.ts';
import type { DB } from '../db/types.ts';

/** A route's first read, in a workspace, from what onRequest knows (params and the raw query). */
type Prefetch = (
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  request: FastifyRequest,
) => Promise<unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read the route may find already started beside the token lookup (http/prefetch.ts). */
    prefetch?: Prefetch;
  }
}

interface Started {
  workspaceId: string;
  /** What the read found (undefined inside: nothing), or undefined when it failed. */
  result: Promise<{ found: unknown } | undefined>;
}

const started = new WeakMap<FastifyRequest, Started>();

/** Credential hash → workspace id, the most recently used: enough for every busy caller. */
const workspaces = new Map<string, string>();
const REMEMBERED = 10_000;

/**
 * A credential's lookup (its hash, the lookup of it), with the route's read started beside it when the
 * credential has been seen before; a found credential's workspace is remembered for its next requests
 * (most recent last), a credential that stopped working is forgotten and starts no more reads.
 */
export async function lookUpBeside<A extends { workspace: { id: string } }>(
  database: Database,
  request: FastifyRequest,
  credentialHash: string,
  lookUp: () => Promise<A | null>,
): Promise<A | null> {
  if (database.dialect !== 'postgres') return lookUp();
  startPrefetch(database, request, credentialHash);
  const found = await lookUp();
  workspaces.delete(credentialHash);
  if (!found) return null;
  if (workspaces.size >= REMEMBERED) workspaces.delete(workspaces.keys().next().value as string);
  workspaces.set(credentialHash, found.workspace.id);
  return found;
}

function startPrefetch(database: Database, request: FastifyRequest, credentialHash: string): void {
  const prefetch = request.routeOptions.config.prefetch;
  if (!prefetch) return;
  const workspaceId = workspaces.get(credentialHash);
  if (workspaceId === undefined) return;
  // A failure is the route's to meet when it reads again: it is never answered from here.
  const result = prefetch(database.db, database.dialect, workspaceId, request).then(
    (found) => ({ found }),
    () => undefined,
  );
  started.set(request, { workspaceId, result });
}

/**
 * What the route's read started for this request in the caller's workspace found, or undefined (none
 * was started, it was started in another workspace, or it failed): the route then reads as usual. A
 * read that found nothing is `{ found: undefined }`, so a missing row is not read twice.
 */
export async function prefetched<T>(
  request: FastifyRequest,
  workspaceId: string,
): Promise<{ found: T } | undefined> {
  const read = started.get(request);
  if (!read || read.workspaceId !== workspaceId) return undefined;
  started.delete(request);
  return (await read.result) as { found: T } | undefined;
}
