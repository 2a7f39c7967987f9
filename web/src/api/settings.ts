// Settings for everyone: the person's profile, password, sessions and personal API tokens. A token's
// secret is in the answer to its creation only: the caller shows it and lets it go, nothing here keeps it
// (not the query cache, not the browser's storage).
import type { Answer, Item } from '@cairn/client';
import { queryOptions } from '@tanstack/react-query';
import { cairn } from './client.ts';

export type Session = Answer<'listSessions'>['data'][number];
type ApiToken = Item<'listApiTokens'>;
export type CreatedToken = Answer<'createApiToken'>;

// --- Profile and password --------------------------------------------------------------------------

/** Renames the person (`POST /v1/users` with their id: anyone may rename themselves). */
export async function renameMe(input: { id: string; name: string }) {
  return cairn.upsertUser({ body: { id: input.id, name: input.name } });
}

/** Changes the password; the API ends every other session of the person (this one stays). */
export async function changePassword(input: { currentPassword: string; newPassword: string }) {
  await cairn.changePassword({ body: input });
}

// --- Sessions ---------------------------------------------------------------------------------------

export const sessionsQuery = queryOptions({
  queryKey: ['sessions'],
  queryFn: async ({ signal }) => (await cairn.listSessions({ signal })).data,
});

export async function endSession(id: string): Promise<void> {
  await cairn.deleteSession({ params: { path: { id } } });
}

// --- Personal API tokens ----------------------------------------------------------------------------

export const apiTokensQuery = queryOptions({
  queryKey: ['api-tokens'],
  queryFn: async ({ signal }) => {
    const tokens: ApiToken[] = [];
    for await (const token of cairn.paginate('listApiTokens', { signal })) tokens.push(token);
    return tokens;
  },
});

export async function createApiToken(name: string): Promise<CreatedToken> {
  return cairn.createApiToken({ body: { name } });
}

export async function revokeApiToken(id: string): Promise<void> {
  await cairn.deleteApiToken({ params: { path: { id } } });
}
