// Waking the webhook worker in this process when events may have committed (an in-process signal;
// other processes hear PostgreSQL's NOTIFY). Signals fold: one wake-up covers every commit before it.
type Listener = () => void;
const listeners = new Set<Listener>();

export function onEventsCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function eventsCommitted(): void {
  for (const l of listeners) l();
}
