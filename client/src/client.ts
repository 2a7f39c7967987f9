// createClient: openapi-fetch over the generated types, with the house conventions written once. One
// naming style: the HTTP method and the documented path, as curl and docs/api.md write them
// (`cairn.get('/v1/tasks/{id}', …)`), typed by the server's own document; every call returns the answer's
// data or throws a CairnError.
import createFetchClient, { type FetchOptions, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { errorOfResponse } from './errors.ts';
import type { paths } from './openapi.ts';
import { DEFAULT_RETRY, type RetryOptions, retryingFetch } from './retry.ts';

export interface ClientOptions {
  /** Where Cairn answers, without `/v1` (`https://cairn.example.com`). */
  baseUrl: string;
  /** An API token. Without one, the client sends the browser's session cookie (`credentials: 'include'`). */
  token?: string;
  /** A fetch to use instead of the global one (a test double, a proxy agent). */
  fetch?: typeof fetch;
  /** Retries of network errors, 429 and 503 (see RetryOptions), or false for none. */
  retry?: Partial<RetryOptions> | false;
  /** Milliseconds one attempt may take before it counts as a timeout (default 30 000). */
  timeoutMs?: number;
  /** Headers sent on every request (a User-Agent of your integration, for example). */
  headers?: Record<string, string>;
}

/** What every call takes beside the operation's own params and body. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as `If-Match`: the update or delete happens only if the resource still has this ETag (else 412). */
  ifMatch?: string;
  /** The POST's Idempotency-Key; by default the client makes one per call and keeps it across retries. */
  idempotencyKey?: string;
}

type Method = 'get' | 'post' | 'delete';
/** The paths that have this method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends undefined | never ? never : P;
}[keyof paths];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type SuccessStatus = 200 | 201 | 202 | 204;
type Content<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
/** What a call answers on success: the JSON of its 2xx response (undefined for 204). */
export type Answer<P extends keyof paths, M extends Method> =
  Operation<P, M> extends {
    responses: infer R;
  }
    ? Content<R[keyof R & SuccessStatus]>
    : never;
/** The operation's params and body (as openapi-fetch takes them), and CallOptions. */
export type Init<P extends keyof paths, M extends Method> = FetchOptions<Operation<P, M>> & CallOptions;
/** The init argument, optional when the operation needs no params and no body (openapi-fetch's rule). */
type Args<P extends keyof paths, M extends Method> =
  undefined extends MaybeOptionalInit<paths[P], M> ? [init?: Init<P, M>] : [init: Init<P, M>];

/** The GET paths that answer a page (`{data, nextCursor, hasMore}`). */
export type PagedPath = {
  [P in PathsWith<'get'>]: Answer<P, 'get'> extends { data: unknown[]; nextCursor: unknown } ? P : never;
}[PathsWith<'get'>];
/** One item of a paged path's pages. */
export type Item<P extends PagedPath> = Answer<P, 'get'> extends { data: (infer T)[] } ? T : never;

export interface PaginateOptions {
  /** Items per page (the server's `limit`, 1–100; default 100). */
  pageSize?: number;
  signal?: AbortSignal;
}

/** A GET's answer with its ETag. */
export interface Fresh<P extends PathsWith<'get'>> {
  notModified: false;
  data: Answer<P, 'get'>;
  etag: string | undefined;
}
/** The resource still has the ETag that was sent (304 Not Modified): keep the copy you have. */
export interface NotModified {
  notModified: true;
  etag: string;
}

export interface CairnClient {
  get<P extends PathsWith<'get'>>(path: P, ...init: Args<P, 'get'>): Promise<Answer<P, 'get'>>;
  post<P extends PathsWith<'post'>>(path: P, ...init: Args<P, 'post'>): Promise<Answer<P, 'post'>>;
  delete<P extends PathsWith<'delete'>>(path: P, ...init: Args<P, 'delete'>): Promise<Answer<P, 'delete'>>;
  /**
   * A GET that revalidates: with `etag` (one an earlier answer gave), sent as `If-None-Match`, an
   * unchanged resource answers `{notModified: true}` (the server's 304, no body) and a changed one its
   * data and new ETag.
   */
  getWithETag<P extends PathsWith<'get'>>(
    path: P,
    init: Init<P, 'get'> & { etag: string },
  ): Promise<Fresh<P> | NotModified>;
  /** A GET and the answer's ETag, to send back as `ifMatch` on the update (or as `etag` to revalidate). */
  getWithETag<P extends PathsWith<'get'>>(path: P, ...init: Args<P, 'get'>): Promise<Fresh<P>>;
  /** Every item of a list or search, page after page, following nextCursor. */
  paginate<P extends PagedPath>(
    path: P,
    init?: Omit<Init<P, 'get'>, 'signal'> & PaginateOptions,
  ): AsyncIterableIterator<Item<P>>;
  /** The openapi-fetch client underneath (retries included, no throwing): for status and headers. */
  readonly raw: ReturnType<typeof createFetchClient<paths>>;
}

/** A random Idempotency-Key: crypto.randomUUID where there is one (not in an insecure browser context). */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Every POST carries an Idempotency-Key, made here once, before retryingFetch's attempts: so a create
// that is sent again after a dropped connection is answered from the first, not made twice.
const idempotency: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', newKey());
    }
    return request;
  },
};

export function createClient(options: ClientOptions): CairnClient {
  const retry =
    options.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const raw = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    fetch: retryingFetch(baseFetch, retry, options.timeoutMs ?? 30_000),
    ...(options.token ? {} : { credentials: 'include' as const }),
  });
  raw.use(idempotency);

  async function call(method: Method, path: string, init: Init<never, never> | undefined) {
    const {
      ifMatch,
      etag,
      idempotencyKey,
      headers: own,
      ...rest
    } = (init ?? {}) as CallOptions & { etag?: string } & Record<string, unknown> & {
        headers?: Record<string, string>;
      };
    const extra: Record<string, string> = { ...own };
    if (ifMatch !== undefined) extra['if-match'] = ifMatch;
    if (etag !== undefined) extra['if-none-match'] = etag;
    if (idempotencyKey !== undefined) extra['idempotency-key'] = idempotencyKey;
    // biome-ignore lint/suspicious/noExplicitAny: the typed signatures are CairnClient's; this is their body.
    const result = await (raw.request as any)(method, path, { ...rest, headers: extra });
    const response = result.response as Response;
    // 304 only ever answers an If-None-Match, which only getWithETag's `etag` sends.
    if (response.ok || (response.status === 304 && etag !== undefined))
      return { data: result.data, response };
    throw errorOfResponse(response, result.error);
  }

  // getWithETag's overloads are CairnClient's; this is their one body.
  async function getWithETag(path: string, init?: CallOptions & { etag?: string }) {
    const { data, response } = await call('get', path, init as never);
    const etag = response.headers.get('etag') ?? undefined;
    if (response.status === 304) return { notModified: true, etag: etag ?? init?.etag };
    return { notModified: false, data, etag };
  }

  const client: CairnClient = {
    raw,
    get: async (path, ...init) => (await call('get', path, init[0] as never)).data,
    post: async (path, ...init) => (await call('post', path, init[0] as never)).data,
    delete: async (path, ...init) => (await call('delete', path, init[0] as never)).data,
    getWithETag: getWithETag as unknown as CairnClient['getWithETag'],
    paginate(path, init) {
      return pages(call, path, init as never);
    },
  };
  return client;
}

type Call = (method: Method, path: string, init: never) => Promise<{ data: unknown }>;

async function* pages(
  call: Call,
  path: string,
  init: (Record<string, unknown> & PaginateOptions & { params?: { query?: object } }) | undefined,
): AsyncIterableIterator<never> {
  const { pageSize = 100, signal, ...rest } = init ?? {};
  let cursor: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const query = { ...rest.params?.query, limit: pageSize, ...(cursor ? { cursor } : {}) };
    const page = (await call('get', path, { ...rest, params: { ...rest.params, query }, signal } as never))
      .data as { data: never[]; nextCursor: string | null; hasMore: boolean };
    for (const item of page.data) {
      yield item;
      signal?.throwIfAborted();
    }
    if (!page.hasMore || !page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
