// A real Cairn for the client's tests: the app of src/test/helpers.ts (a fresh database of the pass's
// kind, SQLite or PostgreSQL) listening on a free local port, and a client holding the owner's token.
import type { AddressInfo } from 'node:net';
import { type Fixture, setup } from '../../src/test/helpers.ts';
import { type ClientOptions, createClient } from '../src/index.ts';

export interface Cairn {
  f: Fixture;
  baseUrl: string;
  token: string;
  client(options?: Partial<ClientOptions>): ReturnType<typeof createClient>;
}

export async function startCairn(env: Record<string, string> = {}): Promise<Cairn> {
  const f = await setup(undefined, env);
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    f,
    baseUrl,
    token: f.ws.token,
    client: (options) => createClient({ baseUrl, token: f.ws.token, ...options }),
  };
}
