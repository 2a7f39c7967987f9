// The live stream's hub (GET /v1/events/stream): one per application, shared by every stream of the
// process. It wakes where the webhook worker wakes (events/signal.ts in this process, PostgreSQL's
// NOTIFY on the one LISTEN connection the process shares, db/index.ts), reads each workspace's new
// events once per wake-up for all of that workspace's streams, loads once what they are about
// (facts.ts) and who the readers are (viewers.ts), and hands the batch to every stream, which keeps
// what its reader may see. So a wake-up costs the same few statements per workspace with 1 stream or
// 1,000, and a stream costs only the checks of its own events.
//
// Wake-ups are read at most every `batchMs` (the first after a quiet spell at once): what was
// committed meanwhile goes out as one batch, and a transaction's events always together (a read sees
// all of a committed transaction's events or none: events/stream.ts settled).
//
// A stream that starts from a position of its own (Last-Event-ID) first catches up alone, page by
// page, each page sent once its reader has taken the last one, and joins the shared reads when it has
// reached them. A stream whose batch would overflow its buffer while its reader keeps up falls back to
// that catching up; one whose reader does not take what was sent is closed (LiveSubscriber's choice).
import type { WorkspaceRef } from '../context.ts';
import type { Database } from '../db/index.ts';
import { type Facts, factsOf } from './facts.ts';
import { isBefore, prunedThrough } from './prune.ts';
import { onEventsCommitted } from './signal.ts';
import { type EventRow, head, isAfter, type Position, readEvents } from './stream.ts';
import { loadViewers, type Viewer } from './viewers.ts';

/** An event as every stream of its workspace gets it. */
export interface LiveEvent {
  row: EventRow;
  position: Position;
  /** The position as the SSE id: the feed's cursor (GET /v1/events), encoded once for every stream. */
  id: string;
  /** What it is about; undefined when that no longer exists (the event then goes to nobody). */
  facts: Facts | undefined;
}

export interface Batch {
  events: LiveEvent[];
  /** The readers of the streams it is for, as they are now. */
  viewers: Map<string, Viewer>;
}

/** A place in the stream with its SSE id. */
export interface Mark {
  position: Position;
  id: string;
}

/** What the hub needs of a stream (modules/events/live-stream.ts). */
export interface LiveSubscriber {
  readonly workspace: WorkspaceRef;
  readonly userId: string;
  /** Where it is: after this, everything it may see was sent (or it is about to catch up from here). */
  readonly position: Position;
  /**
   * Takes a batch (the events after its position that it may see) and moves to `end`. A shared
   * batch (`paged` false) may answer false: too much for its buffer while its reader keeps up; it
   * then catches up page by page. A page of its own (`paged`) is always taken.
   */
  deliver(batch: Batch, end: Mark, paged: boolean): boolean;
  /** Its position was older than the retention: one `reset`, continuing from `at`. */
  reset(at: Mark): void;
  heartbeat(): void;
  /** Resolves once its reader has taken most of what was sent (or it closed). */
  room(): Promise<void>;
  readonly closed: boolean;
  /** Ends the stream; resolves once its response has ended (the server closes, or it cannot go on). */
  end(): Promise<void>;
}

export interface HubOptions {
  /** The SSE id of a position of the workspace's stream (the feed's cursor). */
  encode(workspaceId: string, position: Position): string;
  batchMs: number;
  heartbeatMs: number;
  /** Streams a user may hold at once on this process. */
  maxPerUser: number;
  log: { error(obj: object, msg: string): void };
}

/**
 * Events read at once: a wake-up reads pages until it has them all (up to MAX_BATCH), a stream
 * catching up sends one page at a time (about 70 kB of frames).
 */
const PAGE = 200;
const MAX_BATCH = 5000;
/** A backstop for a wake-up that went missing (a lost NOTIFY, a write from another SQLite process). */
const POLL_MS = 1000;
/** How soon to look again when events are committed but not yet readable in order (PostgreSQL). */
const UNSETTLED_RETRY_MS = 50;

interface Feed {
  workspace: WorkspaceRef;
  /** Everything up to here was handed to `streams`. */
  tail: Mark;
  streams: Set<LiveSubscriber>;
  reading: boolean;
  again: boolean;
  retry: NodeJS.Timeout | undefined;
}

export class LiveHub {
  readonly #database: Database;
  readonly #options: HubOptions;
  readonly #feeds = new Map<string, Promise<Feed>>();
  readonly #all = new Set<LiveSubscriber>();
  readonly #perUser = new Map<string, number>();
  #started = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #lastRead = 0;
  #stops: (() => unknown)[] = [];

  constructor(database: Database, options: HubOptions) {
    this.#database = database;
    this.#options = options;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Counts a stream of this user, or false when the user holds maxPerUser already. The caller gives
   * it back with `release` when the stream ends, whatever happened.
   */
  admit(workspaceId: string, userId: string): boolean {
    const key = `${workspaceId}:${userId}`;
    const n = this.#perUser.get(key) ?? 0;
    if (n >= this.#options.maxPerUser) return false;
    this.#perUser.set(key, n + 1);
    return true;
  }

  release(workspaceId: string, userId: string): void {
    const key = `${workspaceId}:${userId}`;
    const n = (this.#perUser.get(key) ?? 1) - 1;
    if (n <= 0) this.#perUser.delete(key);
    else this.#perUser.set(key, n);
  }

  /**
   * Starts a stream from its position: the workspace's end when it was opened, or (`resumed`) one
   * its client gave, from which it catches up first (or gets one reset, when events after it were
   * pruned).
   */
  async open(sub: LiveSubscriber, resumed: boolean): Promise<void> {
    if (this.#closed) {
      await sub.end();
      return;
    }
    this.#start();
    this.#all.add(sub);
    const feed = await this.#feed(sub.workspace);
    if (sub.closed || this.#closed) return;
    // A workspace whose streams all went is not read: its first new stream moves it to now, rather
    // than have the next read go through everything since.
    if (feed.streams.size === 0 && !feed.reading && isBefore(feed.tail.position, sub.position)) {
      feed.tail = this.#mark(sub.workspace.id, sub.position);
    }
    await this.#catchUp(feed, sub, resumed);
  }

  /** Forgets a stream that ended (its reader went, it was dropped, or the server closes). */
  leave(sub: LiveSubscriber): void {
    this.#all.delete(sub);
    void this.#feeds.get(sub.workspace.id)?.then((feed) => feed.streams.delete(sub));
  }

  /** Wakes the reads: what was committed goes out within batchMs. */
  wake(): void {
    if (this.#timer || this.#closed) return;
    const wait = Math.max(0, this.#lastRead + this.#options.batchMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#lastRead = Date.now();
      for (const feed of this.#feeds.values()) void feed.then((f) => this.#read(f));
    }, wait);
  }

  /** Ends every stream and stops listening; streams opened later end at once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    const ending = [...this.#all].map((sub) => sub.end());
    this.#all.clear();
    for (const feed of this.#feeds.values()) void feed.then((f) => clearTimeout(f.retry));
    await Promise.all([...ending, ...this.#stops.map((stop) => stop())]);
  }

  /** Listening, polling and heartbeats start with the first stream: an app that never streams pays nothing. */
  #start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    const poll = setInterval(() => this.wake(), POLL_MS).unref();
    const beat = setInterval(() => {
      for (const sub of this.#all) sub.heartbeat();
    }, this.#options.heartbeatMs).unref();
    this.#stops = [
      onEventsCommitted(() => this.wake()),
      this.#database.listen('cairn_events', () => this.wake()),
      () => clearInterval(poll),
      () => clearInterval(beat),
    ];
  }

  #mark(workspaceId: string, position: Position): Mark {
    return { position, id: this.#options.encode(workspaceId, position) };
  }

  #feed(workspace: WorkspaceRef): Promise<Feed> {
    let feed = this.#feeds.get(workspace.id);
    if (!feed) {
      const { db, dialect } = this.#database;
      feed = head(db, dialect, workspace.id).then((end) => ({
        workspace,
        tail: this.#mark(workspace.id, end),
        streams: new Set<LiveSubscriber>(),
        reading: false,
        again: false,
        retry: undefined,
      }));
      this.#feeds.set(workspace.id, feed);
      feed.catch(() => this.#feeds.delete(workspace.id));
    }
    return feed;
  }

  /** The events after `after` that can be read in order, up to MAX_BATCH. */
  async #readAfter(workspaceId: string, after: Position, max: number): Promise<EventRow[]> {
    const { db, dialect } = this.#database;
    const rows: EventRow[] = [];
    let from = after;
    for (;;) {
      const page = await readEvents(db, dialect, workspaceId, from, [], Math.min(PAGE, max - rows.length));
      rows.push(...page);
      const last = page[page.length - 1];
      if (!last || page.length < PAGE || rows.length >= max) return rows;
      from = { tx: last.tx, seq: last.seq };
    }
  }

  /** A batch of rows with what they are about and the readers of `userIds`. */
  async #batch(workspace: WorkspaceRef, rows: EventRow[], userIds: string[]): Promise<Batch> {
    const { db, dialect } = this.#database;
    const facts = await factsOf(this.#database, workspace, rows);
    // Read after the facts: the readers as they are at the moment of sending.
    const viewers = await loadViewers(db, dialect, workspace.id, userIds);
    const events = rows.map((row) => {
      const position = { tx: Number(row.tx), seq: Number(row.seq) };
      return {
        row,
        position,
        id: this.#options.encode(workspace.id, position),
        facts: facts.get(`${row.entity_type}:${row.entity_id}`),
      };
    });
    return { events, viewers };
  }

  /** One shared read of a workspace's new events, handed to its live streams. */
  async #read(feed: Feed): Promise<void> {
    if (feed.reading) {
      feed.again = true;
      return;
    }
    if (feed.streams.size === 0) return;
    feed.reading = true;
    try {
      do {
        feed.again = false;
        const rows = await this.#readAfter(feed.workspace.id, feed.tail.position, MAX_BATCH);
        if (rows.length > 0) {
          const users = [...new Set([...feed.streams].map((s) => s.userId))];
          const batch = await this.#batch(feed.workspace, rows, users);
          const last = batch.events[batch.events.length - 1]!;
          const end = { position: last.position, id: last.id };
          feed.tail = end;
          for (const sub of feed.streams) this.#hand(feed, sub, batch, end);
          if (rows.length >= MAX_BATCH) feed.again = true;
        }
        if (!feed.again) await this.#lookForUnsettled(feed);
      } while (feed.again && !this.#closed);
    } catch (error) {
      this.#options.log.error(
        { err: error, workspace: feed.workspace.id },
        'live stream: cannot read events',
      );
      this.#retry(feed, POLL_MS);
    } finally {
      feed.reading = false;
    }
  }

  /** Hands a batch to a live stream; one that cannot take it, or joined after its readers were read, catches up. */
  #hand(feed: Feed, sub: LiveSubscriber, batch: Batch, end: Mark): void {
    if (sub.closed) {
      feed.streams.delete(sub);
      return;
    }
    if (batch.viewers.has(sub.userId) && sub.deliver(batch, end, false)) return;
    feed.streams.delete(sub);
    void this.#catchUp(feed, sub, false);
  }

  /**
   * PostgreSQL shows events only once every older transaction ended (stream.ts settled): when some
   * were committed but are not readable yet, the NOTIFY that announced them has been spent, so look
   * again shortly.
   */
  async #lookForUnsettled(feed: Feed): Promise<void> {
    const { db, dialect } = this.#database;
    if (dialect !== 'postgres') return;
    const { tx, seq } = feed.tail.position;
    const pending = await db
      .selectFrom('events')
      .select('seq')
      .where('workspace_id', '=', feed.workspace.id)
      .where(isAfter(dialect, '', tx, seq))
      .limit(1)
      .executeTakeFirst();
    if (pending) this.#retry(feed, UNSETTLED_RETRY_MS);
  }

  #retry(feed: Feed, ms: number): void {
    if (feed.retry || this.#closed) return;
    feed.retry = setTimeout(() => {
      feed.retry = undefined;
      void this.#read(feed);
    }, ms).unref();
  }

  /**
   * A stream behind the shared reads reads alone, a page at a time, each once its reader took the
   * last, and joins when it has reached them (in the same turn as the check, so no batch falls
   * between). `resumed`: it starts from a position its client gave, which may be past the retention.
   */
  async #catchUp(feed: Feed, sub: LiveSubscriber, resumed: boolean): Promise<void> {
    try {
      // A position its client gave is checked against the pruning once, after the first read (as
      // the feed does: a pruning that committed before that read is seen).
      let check = resumed;
      while (!sub.closed && !this.#closed) {
        if (!isBefore(sub.position, feed.tail.position)) {
          if (check) {
            check = false;
            await this.#resetIfPruned(feed, sub);
            continue;
          }
          feed.streams.add(sub);
          return;
        }
        const rows = await this.#readAfter(feed.workspace.id, sub.position, PAGE);
        if (check) {
          check = false;
          if (await this.#resetIfPruned(feed, sub)) continue;
        }
        if (rows.length === 0) {
          // Nothing readable past it although the shared reads are ahead: those events were pruned.
          if (isBefore(sub.position, feed.tail.position)) sub.reset(feed.tail);
          continue;
        }
        const batch = await this.#batch(feed.workspace, rows, [sub.userId]);
        const last = batch.events[batch.events.length - 1]!;
        if (sub.closed) return;
        sub.deliver(batch, { position: last.position, id: last.id }, true);
        await sub.room();
      }
    } catch (error) {
      this.#options.log.error({ err: error, workspace: feed.workspace.id }, 'live stream: cannot catch up');
      void sub.end();
    }
  }

  /**
   * One reset when events after the stream's position were pruned (prune.ts records how far): the
   * client reads everything again, so the stream goes on from the workspace's end as it is now (or
   * the shared reads', when further).
   */
  async #resetIfPruned(feed: Feed, sub: LiveSubscriber): Promise<boolean> {
    const { db, dialect } = this.#database;
    const through = await prunedThrough(db, feed.workspace.id);
    if (!through || !isBefore(sub.position, through)) return false;
    const end = await head(db, dialect, feed.workspace.id);
    sub.reset(isBefore(end, feed.tail.position) ? feed.tail : this.#mark(feed.workspace.id, end));
    return true;
  }
}
