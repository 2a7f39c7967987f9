// The signed-in layout's one live stream: each event makes the cached queries it touches stale
// (roots.ts), so an open list, board or task shows someone else's change without a reload. After a
// network error the browser reconnects and resumes with Last-Event-ID (the missed events arrive, once);
// if it gave up (an error answer), or the browser went offline, a new stream is opened (after a pause,
// or when the browser is back online) and every query on screen is read again, since a new stream has
// no position to resume from. While disconnected, a quiet "Reconnecting…" status.
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

type LiveState = 'connecting' | 'open' | 'down';

function useLiveUpdates(): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    const stale = invalidator(queryClient);
    let close: (() => void) | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let resumeLost = false;
    let dropped = false;
    // Down without a position to resume from: the next stream starts now, so once it is open
    // everything on screen is read again.
    const drop = () => {
      close?.();
      close = undefined;
      clearTimeout(retry);
      resumeLost = true;
      setState('down');
    };
    const connect = () => {
      if (!navigator.onLine) return drop(); // the browser says when it is back ('online')
      close = openLiveStream({
        onEvent: (event) => stale.add(rootsOf(event)),
        onReset: () => stale.everything(),
        onOpen: (resumed) => {
          attempt = 0;
          setState('open');
          // The browser reconnected without a position (no event came before the drop): the stream
          // starts now, and what changed meanwhile is read again.
          if (resumeLost || (dropped && !resumed)) stale.everything();
          resumeLost = false;
          dropped = false;
        },
        onDrop: (closed) => {
          dropped = true;
          setState('down');
          if (!closed) return; // the browser retries by itself, with Last-Event-ID
          drop();
          retry = setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
        },
      });
    };
    // A connection the network lost may hang without an error for minutes: the browser's word that
    // it is offline closes it, and its word that it is back opens a new one at once.
    const online = () => {
      drop();
      attempt = 0;
      connect();
    };
    window.addEventListener('offline', drop);
    window.addEventListener('online', online);
    connect();
    return () => {
      window.removeEventListener('offline', drop);
      window.removeEventListener('online', online);
      clearTimeout(retry);
      stale.stop();
      close?.();
    };
  }, [queryClient]);
  return state;
}

/** Opens the stream; shows "Reconnecting…" while it is down (a status, read out when it changes).
 *  `data-state` says where the connection is (connecting, open, down), for the journeys. */
export function LiveConnection() {
  const state = useLiveUpdates();
  return (
    <p className="live-status" role="status" data-state={state}>
      {state === 'down' ? 'Reconnecting…' : ''}
    </p>
  );
}
