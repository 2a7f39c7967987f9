import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Auth, type Context, now } from '../../context.ts';
import type { Dialect } from '../../db/index.ts';
import type { Page, PageRequest } from '../../db/keyset.ts';
import { listPage } from '../../db/listing.ts';
import type { DB } from '../../db/types.ts';
import { forbidden, invalid } from '../../http/errors.ts';
import { uuidRef } from '../../http/ids.ts';
import { loadById } from '../../preconditions.ts';
import * as groups from '../groups/lookup.ts';
import * as users from '../users/service.ts';
import { canIssueTokenFor, canRevokeToken } from './policy.ts';
import type { CallerRow, ListedToken, TokenRow } from './repository.ts';
import * as repo from './repository.ts';

// Tokens are long random strings, so a plain SHA-256 is the right hash: nothing to brute-force, and a
// lookup stays one indexed equality.
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function generateToken(): string {
  return `cairn_${randomBytes(32).toString('base64url')}`;
}

export interface IssuedToken {
  row: TokenRow;
  token: string;
}

/** Stores a token (the given one, or a new random one) for a user, without any permission check. */
export async function insertToken(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  name: string,
  token: string = generateToken(),
): Promise<IssuedToken> {
  const row: TokenRow = {
    workspace_id: workspaceId,
    id: randomUUID(),
    user_id: userId,
    name,
    token_hash: hashToken(token),
    last_used_at: null,
    revoked_at: null,
    created_at: now(),
  };
  await repo.insertToken(db, row);
  return { row, token };
}

/**
 * `cairn token create`: a new token for the workspace's user with this email, or null when there is
 * none. The operator's way back in when the bootstrap token is lost, so no permission check.
 */
export async function issueTokenForEmail(
  ctx: Context,
  email: string,
  name: string,
): Promise<IssuedToken | null> {
  const user = await users.findUserByEmail(ctx, email);
  return user ? insertToken(ctx.db, ctx.workspace.id, user.id, name) : null;
}

export async function issueToken(
  ctx: Context,
  input: { name: string; userId?: string },
): Promise<IssuedToken> {
  const userId = input.userId ?? ctx.actor.id;
  // Someone outside the caller's directory reads as an unknown id, not as a 403 that confirms them.
  const user = await users.findInDirectory(ctx, userId);
  if (!user) throw invalid('userId', 'no user with this id in the workspace');
  if (!canIssueTokenFor(ctx.actor, user)) {
    throw forbidden('Only owners and admins can create tokens for other users, and only owners for owners');
  }
  return insertToken(ctx.db, ctx.workspace.id, user.id, input.name.trim());
}

export async function revokeToken(ctx: Context, ref: string): Promise<void> {
  // Someone else's token is not revealed to a caller who could not revoke it.
  const row = await loadById(ctx, repo.TOKENS, uuidRef(ref), {
    forChange: true,
    visible: (token) => canRevokeToken(ctx.actor, { userId: token.user_id }),
  });
  if (row.revoked_at === null) await repo.revokeToken(ctx.db, ctx.workspace.id, row.id, now());
}

/**
 * GET /v1/api-tokens: the caller's own live tokens, oldest first; whoever the caller is, only its own
 * (an admin revokes others' by id, but does not browse them). The secret is never stored, so never
 * shown; the hash is not selected.
 */
export function listOwnTokens(ctx: Context, page: PageRequest): Promise<Page<ListedToken>> {
  return listPage(ctx, repo.TOKEN_LIST, [repo.liveTokensOf(ctx.actor.id)], page, false);
}

// "Last used" timestamps are a convenience, not an audit log: write them at most once a minute per
// token so that authentication stays a read.
const TOUCH_INTERVAL_MS = 60_000;

/** The caller of a token, by its hash (hashToken), or null when no live token has it. */
export async function authenticate(db: Kysely<DB>, dialect: Dialect, hash: string): Promise<Auth | null> {
  const found = await repo.findActiveTokenByHash(db, dialect, hash);
  if (!found) return null;
  const at = now();
  const last = found.token_last_used_at ? Date.parse(found.token_last_used_at) : 0;
  if (Date.parse(at) - last > TOUCH_INTERVAL_MS) {
    await repo.touchToken(db, found.workspace_id, found.token_id, at);
    await users.touchUser(db, found.workspace_id, found.user_id, at);
  }
  return callerAuth(found, found.token_id);
}

/**
 * The Auth a credential's lookup gives (a token's here, a session's in auth/sessions.ts), its groups'
 * visibility known from the same row. `tokenId` is the credential's id: idempotency keys and rate
 * budgets are per credential.
 */
export function callerAuth(found: CallerRow, tokenId: string, session?: Auth['session']): Auth {
  const auth: Auth = {
    workspace: { id: found.workspace_id, name: found.workspace_name, code: Number(found.workspace_code) },
    actor: {
      id: found.user_id,
      name: found.user_name,
      email: found.user_email,
      role: found.user_role,
      tokenId,
    },
    ...(session ? { session } : {}),
  };
  groups.knownGroupVisibility(auth, repo.groupsOf(found));
  return auth;
}
