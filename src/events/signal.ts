// Waking the webhook worker in this process when it may have work (an in-process signal; other
// processes hear PostgreSQL's NOTIFY): an after-commit hook of every transaction that recorded events
// (outbox.ts) or queued a replay (webhooks/service.ts). Signals fold: one wake-up covers every commit
// before it.
type Listener = () => void;
const listeners = new Set<Listener>();

export function onEventsCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function eventsCommitted(): void {
  for (const l of listeners) l();
}
