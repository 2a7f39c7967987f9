// A Server-Sent Events client for tests and the bench: opens GET /v1/events/stream over real HTTP
// (app.inject waits for the end of an answer, which a stream never reaches) and reads its frames as
// the HTML standard's event stream interpretation does, for the parts the stream uses: `id`,
// `event`, `data` and comment lines, a blank line ending each frame.

import { Agent } from 'undici';

/**
 * The connections the streams are opened on: an agent of their own, which `closeConnections` ends,
 * so that a test can end the connections its client keeps idle (or opened ahead and never used),
 * which a closing server otherwise waits for until they time out.
 */
let agent = new Agent();

export async function closeConnections(): Promise<void> {
  const old = agent;
  agent = new Agent();
  await old.destroy();
}

export interface Frame {
  /** The id line, when the frame had one. */
  id?: string;
  event?: string;
  data?: string;
  /** The comment lines' text (`: heartbeat` → `heartbeat`). */
  comments: string[];
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The body of an answer that is not a stream (a problem). */
  // biome-ignore lint/suspicious/noExplicitAny: a parsed problem body.
  problem: any;
  /** The next frame; rejects when the stream ends first or none comes within `timeoutMs`. */
  next(timeoutMs?: number): Promise<Frame>;
  /** The next frame that carries an event (data), skipping heartbeats and the opening comment. */
  nextEvent(timeoutMs?: number): Promise<Frame>;
  /** Resolves when the server has ended the stream (every frame before read or not). */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(
  base: string,
  token: string,
  options: { query?: string; lastEventId?: string } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const res = await fetch(`${base}/v1/events/stream${options.query ? `?${options.query}` : ''}`, {
    headers,
    signal: controller.signal,
    // @ts-expect-error: undici's fetch option, which the DOM's RequestInit does not list
    dispatcher: agent,
  });
  const frames: Frame[] = [];
  const waiting: (() => void)[] = [];
  let done = false;
  let endedResolve: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    endedResolve = resolve;
  });
  const wakeAll = () => {
    for (const w of waiting.splice(0)) w();
  };
  const isStream =
    res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const problem = isStream ? undefined : await res.json();
  if (isStream) {
    void (async () => {
      const decoder = new TextDecoder();
      let text = '';
      try {
        for await (const chunk of res.body!) {
          text += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = text.indexOf('\n\n');
          while (end >= 0) {
            frames.push(parse(text.slice(0, end)));
            text = text.slice(end + 2);
            end = text.indexOf('\n\n');
          }
          wakeAll();
        }
      } catch {
        // aborted by close(), or the connection was cut
      }
      done = true;
      endedResolve();
      wakeAll();
    })();
  } else {
    done = true;
    endedResolve();
  }
  const next = async (timeoutMs = 10_000): Promise<Frame> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const frame = frames.shift();
      if (frame) return frame;
      if (done) throw new Error('the stream ended');
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    problem,
    next,
    async nextEvent(timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const frame = await next(Math.max(1, until - Date.now()));
        if (frame.data !== undefined) return frame;
      }
    },
    ended,
    close: () => controller.abort(),
  };
}

function parse(block: string): Frame {
  const frame: Frame = { comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
  }
  return frame;
}
