// createClient: openapi-fetch over the generated types, with the house conventions written once. One
// naming style: a method per operation, named by its operationId in the server's document
// (`cairn.upsertTask({ body })`, `cairn.getTask({ params: { path: { id } } })`), typed by that document;
// every call returns the answer's data or throws a CairnError. `raw` is the low-level escape hatch.
import createFetchClient, { type Middleware } from 'openapi-fetch';
import type {
  Answer,
  ArgsOf,
  CallOptions,
  GetOperation,
  Init,
  Item,
  OperationId,
  PagedOperation,
} from './calls.ts';
import { errorOfResponse } from './errors.ts';
import type { paths } from './openapi.ts';
import { OPERATIONS, type OperationMethods } from './operations.ts';
import { DEFAULT_RETRY, type RetryOptions, retryingFetch } from './retry.ts';

export interface ClientOptions {
  /** Where Cairn answers, without `/v1` (`https://cairn.example.com`). */
  baseUrl: string;
  /** An API token. Without one, the client sends the browser's session cookie (`credentials: 'include'`). */
  token?: string | undefined;
  /** A fetch to use instead of the global one (a test double, a proxy agent). */
  fetch?: typeof fetch | undefined;
  /** Retries of network errors, 429 and 503 (see RetryOptions), or false for none. */
  retry?: Partial<RetryOptions> | false | undefined;
  /** Milliseconds one attempt may take before it counts as a timeout (default 30 000). */
  timeoutMs?: number | undefined;
  /** Headers sent on every request (a User-Agent of your integration, for example). */
  headers?: Record<string, string> | undefined;
}

export interface PaginateOptions {
  /** Items per page (the server's `limit`, 1–100; default 100). */
  pageSize?: number | undefined;
  signal?: AbortSignal | undefined;
}
/** What paginate takes: the operation's params (its `cursor` and `limit` are the walk's), and PaginateOptions. */
export type PageInit<K extends PagedOperation> = Omit<Init<K>, 'signal' | 'ifMatch' | 'idempotencyKey'> &
  PaginateOptions;

/** A GET's answer with its ETag. */
export interface Fresh<K extends GetOperation> {
  notModified: false;
  data: Answer<K>;
  etag: string | undefined;
}
/** The resource still has the ETag that was sent (304 Not Modified): keep the copy you have. */
export interface NotModified {
  notModified: true;
  etag: string;
}

export interface CairnClient extends OperationMethods {
  /**
   * A GET that revalidates: with `etag` (one an earlier answer gave), sent as `If-None-Match`, an
   * unchanged resource answers `{notModified: true}` (the server's 304, no body) and a changed one its
   * data and new ETag.
   */
  getWithETag<K extends GetOperation>(
    operation: K,
    init: Init<K> & { etag: string },
  ): Promise<Fresh<K> | NotModified>;
  /** A GET and the answer's ETag, to send back as `ifMatch` on the update (or as `etag` to revalidate). */
  getWithETag<K extends GetOperation>(operation: K, ...init: ArgsOf<Init<K>>): Promise<Fresh<K>>;
  /** Every item of a list or search, page after page, following nextCursor: `paginate('searchTasks', …)`. */
  paginate<K extends PagedOperation>(
    operation: K,
    ...init: ArgsOf<PageInit<K>>
  ): AsyncIterableIterator<Item<K>>;
  /**
   * The low-level escape hatch: the openapi-fetch client underneath, called by method and path
   * (`raw.POST('/v1/tasks', …)`), with the same retries and Idempotency-Key, answering
   * `{data, error, response}` instead of throwing. For an answer's status and headers.
   */
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

type AnyInit = CallOptions & { etag?: string; params?: { query?: object }; body?: unknown };
type Request = (
  operation: OperationId,
  init: AnyInit | undefined,
) => Promise<{ data: unknown; response: Response }>;

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

  const request: Request = async (operation, init) => {
    const [method, path] = OPERATIONS[operation];
    const { ifMatch, etag, idempotencyKey, headers: own, ...rest } = init ?? {};
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
  };

  const client = {
    raw,
    // getWithETag's overloads are CairnClient's; this is their one body.
    async getWithETag(operation: OperationId, init?: AnyInit) {
      const { data, response } = await request(operation, init);
      const etag = response.headers.get('etag') ?? undefined;
      if (response.status === 304) return { notModified: true, etag: etag ?? init?.etag };
      return { notModified: false, data, etag };
    },
    paginate: (operation: OperationId, init?: AnyInit & PaginateOptions) => pages(request, operation, init),
  } as Record<string, unknown>;
  for (const operation of Object.keys(OPERATIONS) as OperationId[]) {
    client[operation] = async (init?: AnyInit) => (await request(operation, init)).data;
  }
  return client as unknown as CairnClient;
}

async function* pages(
  request: Request,
  operation: OperationId,
  init: (AnyInit & PaginateOptions) | undefined,
): AsyncIterableIterator<never> {
  const { pageSize = 100, signal, ...rest } = init ?? {};
  let cursor: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const query = { ...rest.params?.query, limit: pageSize, ...(cursor ? { cursor } : {}) };
    const page = (await request(operation, { ...rest, params: { ...rest.params, query }, signal })).data as {
      data: never[];
      nextCursor: string | null;
      hasMore: boolean;
    };
    for (const item of page.data) {
      yield item;
      signal?.throwIfAborted();
    }
    if (!page.hasMore || !page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
