// The events feed (GET /v1/events) walked from a stored position: what a mirror or a poller needs. The
// position to store is the page's nextCursor; an event id is also a position (it travels between
// databases). A position older than the events the server keeps is reported as FeedPositionExpired
// (the caller walks everything again, then carries on from `latest`): the server answers a cursor
// before what it pruned with `400 cursor_expired`, and an event id it no longer has with `400` at
// /query/after.

import type { CairnClient } from './client.ts';
import { CairnError } from './errors.ts';
import type { components, operations } from './openapi.ts';

export type CairnEvent = components['schemas']['Event'];
export type EventType = NonNullable<
  NonNullable<operations['listEvents']['parameters']['query']>['type']
>[number];

export interface FeedPage {
  /** The page's events, oldest first, each exactly as a webhook delivery carries it. */
  events: CairnEvent[];
  /** Store this once the page's events are applied: the next sync starts after them. */
  position: string;
  /** More events were there when this page was read. */
  hasMore: boolean;
}

export interface SyncOptions {
  /** A stored position (a nextCursor or an event id), `latest` (from now on) or `start` (all retained). */
  from: string;
  types?: EventType[] | undefined;
  /** Events per request (1–100, default 100). */
  pageSize?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * The stored position is older than the events the server keeps: events were missed. Its `cause` is
 * the server's answer (`cursor_expired`, or `validation_failed` for an event id no longer kept).
 */
export class FeedPositionExpired extends CairnError {
  constructor(cause: CairnError) {
    super({
      code: 'cursor_expired',
      status: cause.status,
      title: 'Feed position expired',
      detail: `the position is older than the events the server keeps; walk everything again (${cause.detail})`,
      errors: cause.errors,
      requestId: cause.requestId,
      cause,
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The pages of the feed after `from`, until the end of what exists now. Apply each page's events, then
 * store its position; run again later (or on a webhook) to carry on.
 */
export async function* syncEvents(cairn: CairnClient, options: SyncOptions): AsyncGenerator<FeedPage> {
  let after = options.from === 'latest' ? await latestPosition(cairn, options) : options.from;
  for (;;) {
    options.signal?.throwIfAborted();
    let page: Awaited<ReturnType<typeof read>>;
    try {
      page = await read(cairn, after === 'start' ? undefined : after, options);
    } catch (error) {
      // A position before what was pruned is cursor_expired; an event id that no longer exists is
      // 400 at /query/after (the server cannot tell a pruned id from one that never was).
      const expired =
        error instanceof CairnError &&
        (error.code === 'cursor_expired' ||
          (error.code === 'validation_failed' &&
            UUID.test(after) &&
            error.errors.some((e) => e.path === '/query/after')));
      throw expired ? new FeedPositionExpired(error) : error;
    }
    after = page.nextCursor;
    yield { events: page.data, position: page.nextCursor, hasMore: page.hasMore };
    if (!page.hasMore) return;
  }
}

function read(cairn: CairnClient, after: string | undefined, options: Omit<SyncOptions, 'from'>) {
  return cairn.listEvents({
    params: { query: { after, type: options.types, limit: options.pageSize ?? 100 } },
    signal: options.signal,
  });
}

/** The position of "now": an empty page's nextCursor from `after=latest`. */
export async function latestPosition(
  cairn: CairnClient,
  options: Omit<SyncOptions, 'from'> = {},
): Promise<string> {
  return (await read(cairn, 'latest', { ...options, pageSize: 1 })).nextCursor;
}
