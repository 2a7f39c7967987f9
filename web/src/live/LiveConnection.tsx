// The signed-in layout's one live stream: each event makes the cached queries it touches stale
// (roots.ts), so an open list, board or task shows someone else's change without a reload. After a
// network drop the browser reconnects and resumes with Last-Event-ID (the missed events arrive, once);
// if it gave up (an error answer), a new stream is opened after a pause and every query is read again,
// since there is no position to resume from. While disconnected, a quiet "Reconnecting…" status.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openLiveStream } from '../api/live.ts';
import { rootsOf } from './roots.ts';

/** Events arriving together (a batch, a burst) refresh each query once. */
const GATHER_MS = 150;
/** Pauses before opening a new stream after the browser gave up on one, longer each time. */
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** Marks queries stale by root, a burst at a time, and not while a change of the person's is on its
 *  way (its optimistic state would flash back to the server's older answer). */
function invalidator(queryClient: QueryClient) {
  const roots = new Set<string>();
  let all = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (queryClient.isMutating() > 0) {
      timer = setTimeout(flush, GATHER_MS * 2);
      return;
    }
    const everything = all;
    const these = new Set(roots);
    all = false;
    roots.clear();
    void queryClient.invalidateQueries(
      everything ? {} : { predicate: (query) => these.has(String(query.queryKey[0])) },
    );
  };
  const schedule = () => {
    timer ??= setTimeout(flush, GATHER_MS);
  };
  return {
    add(more: string[]) {
      for (const root of more) roots.add(root);
      schedule();
    },
    everything() {
      all = true;
      schedule();
    },
    stop: () => clearTimeout(timer),
  };
}

function useLiveUpdates(): boolean {
  const queryClient = useQueryClient();
  const [down, setDown] = useState(false);

  useEffect(() => {
    const stale = invalidator(queryClient);
    let close = () => {};
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let resumeLost = false;
    const connect = () => {
      close = openLiveStream({
        onEvent: (event) => stale.add(rootsOf(event)),
        onReset: () => stale.everything(),
        onOpen: () => {
          attempt = 0;
          setDown(false);
          if (resumeLost) stale.everything();
          resumeLost = false;
        },
        onDrop: (closed) => {
          setDown(true);
          if (!closed) return;
          close();
          resumeLost = true;
          retry = setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
        },
      });
    };
    connect();
    return () => {
      clearTimeout(retry);
      stale.stop();
      close();
    };
  }, [queryClient]);
  return down;
}

/** Opens the stream; shows "Reconnecting…" while it is down (a status, read out when it changes). */
export function LiveConnection() {
  const down = useLiveUpdates();
  return (
    <p className="live-status" role="status">
      {down ? 'Reconnecting…' : ''}
    </p>
  );
}
