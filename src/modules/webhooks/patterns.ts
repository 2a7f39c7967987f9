// What a subscription's `event` names (docs/integrations.md "Managing subscriptions"): one event type,
// `*` (every type), or `<resource>.*` (every type of one resource, `task.*`). A pattern is kept as
// written and matched when events are read, so a type added later reaches the subscriptions whose
// pattern covers it.
import type { EventType } from '../registry.ts';
import { EVENT_TYPES } from '../registry.ts';

/** `*` and one `<resource>.*` per resource with events, in the registry's order. */
export const EVENT_PATTERNS: readonly string[] = [
  '*',
  ...new Set(EVENT_TYPES.map((t) => `${t.slice(0, t.indexOf('.'))}.*`)),
];

/** Every value `event` may take: the names, then the patterns. */
export const SUBSCRIBABLE: readonly string[] = [...EVENT_TYPES, ...EVENT_PATTERNS];

/** The event types a name or pattern covers (none for an unknown one). */
export function typesOf(event: string): EventType[] {
  if (event === '*') return [...EVENT_TYPES];
  if (event.endsWith('.*')) {
    const prefix = event.slice(0, -1);
    return EVENT_TYPES.filter((t) => t.startsWith(prefix));
  }
  return EVENT_TYPES.filter((t) => t === event);
}

/** The types to read a subscription's events with (stream.ts readEvents): none for `*`, which reads them all. */
export function readTypes(event: string): readonly string[] {
  return event === '*' ? [] : typesOf(event);
}

/** Whether two subscriptions' events have a type in common. */
export function overlaps(a: string, b: string): boolean {
  const covered = new Set<string>(typesOf(a));
  return typesOf(b).some((t) => covered.has(t));
}

/**
 * A hook URL as two subscriptions are compared by: the WHATWG URL parser's form (scheme and host in
 * lower case, the default port dropped, an empty path as `/`, characters that need it
 * percent-encoded), without the fragment, which is never sent. Path and query are compared as they
 * are: a receiver may route by them. An unparsable URL (never stored: subscribe refuses it) compares
 * as written.
 */
export function receiverOf(hookUrl: string): string {
  try {
    const url = new URL(hookUrl);
    url.hash = '';
    return url.href;
  } catch {
    return hookUrl;
  }
}
