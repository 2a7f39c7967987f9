// The live stream (`GET /v1/events/stream`, docs/api.md "The live stream"): Server-Sent Events read by
// the browser's EventSource with the session cookie. Each event is thin ({id, type, entityType,
// entityId, teamId, projectId}): it says what changed, and the app reads the thing again. EventSource
// reconnects by itself after a network error and sends the last position as Last-Event-ID, from which
// the server sends every event missed, once.

export interface LiveEvent {
  id: string;
  type: string;
  entityType: string;
  entityId: string;
  teamId: string | null;
  projectId: string | null;
}

/** The events the app listens for (an SSE event is heard only by its name); the stream sends only these. */
const LIVE_TYPES = [
  'task.created',
  'task.updated',
  'task.deleted',
  'task.restored',
  'project.created',
  'project.updated',
  'project.archived',
  'project.unarchived',
  'project.status_updated',
  'document.created',
  'document.updated',
  'document.deleted',
  'document.restored',
  'post.created',
  'team.created',
  'team.updated',
  'area.created',
  'area.updated',
];

export interface LiveHandlers {
  onEvent: (event: LiveEvent) => void;
  /** The server could not resume where the stream was (past the events kept): read everything again. */
  onReset: () => void;
  /** Open; `resumed` when it went on from a position (Last-Event-ID): nothing was missed. */
  onOpen: (resumed: boolean) => void;
  /** The connection dropped; `closed` when the browser gave up on it (an error answer, not a network
   *  drop), so a new stream must be opened, without a position to resume from. */
  onDrop: (closed: boolean) => void;
}

/** Opens the stream; returns the function that closes it. */
export function openLiveStream(handlers: LiveHandlers): () => void {
  const url = new URL('/v1/events/stream', window.location.origin);
  url.searchParams.set('type', LIVE_TYPES.join(','));
  const source = new EventSource(url, { withCredentials: true });
  // The last position the stream gave (an event's SSE id), which the browser resumes from.
  let position = '';
  const onMessage = (message: MessageEvent<string>) => {
    position = message.lastEventId || position;
    try {
      handlers.onEvent(JSON.parse(message.data) as LiveEvent);
    } catch {
      // A frame that is not the documented JSON changes nothing; the next ones still count.
    }
  };
  for (const type of LIVE_TYPES) source.addEventListener(type, onMessage);
  source.addEventListener('reset', (message) => {
    position = (message as MessageEvent).lastEventId || position;
    handlers.onReset();
  });
  source.addEventListener('open', () => handlers.onOpen(position !== ''));
  source.addEventListener('error', () => handlers.onDrop(source.readyState === EventSource.CLOSED));
  return () => source.close();
}
