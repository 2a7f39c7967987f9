// What task and project templates share when a create or an update is checked as a whole: fields
// given replace, null clears, absent keep (docs/decisions.md §4), for descriptions, calendar dates and the
// four fields of a relative date.
import { type Description, type DescriptionInput, EMPTY, fromInput } from './description.ts';
import { calendarDate, type RelativeDate, relativeDate } from './relative-dates.ts';

/** `given` when the body has the field (null clears), else `kept`. */
export function pick<T>(given: T | undefined, kept: T): T {
  return given === undefined ? kept : given;
}

/** The description after the change: the body's (null: empty), else the stored one (a create: empty). */
export function mergedDescription(
  given: DescriptionInput | null | undefined,
  current: { description_html: string; description_markdown: string } | undefined,
): Description {
  if (given === null) return EMPTY;
  if (given !== undefined) return fromInput(given);
  return current ? { html: current.description_html, markdown: current.description_markdown } : EMPTY;
}

/** A calendar date after the change (`YYYY-MM-DD`, checked), or null. */
export function mergedCalendar(
  given: string | null | undefined,
  kept: string | null | undefined,
  field: string,
) {
  const value = pick(given, kept ?? null);
  return value === null ? null : calendarDate(value, field);
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The relative date after the change, from the body's `<prefix>Count`, `…Unit`, `…Direction` and
 * `…EventType` over the stored `<prefix_in_snake_case>_count`, …: all four or none (400 naming the
 * missing one).
 */
export function mergedRelative(
  body: object,
  current: object | undefined,
  prefix: 'relativeDate' | 'relativeDueDate' | 'relativeStartDate',
): RelativeDate | null {
  const names = {
    count: `${prefix}Count`,
    unit: `${prefix}Unit`,
    direction: `${prefix}Direction`,
    event: `${prefix}EventType`,
  };
  const given = body as Record<string, unknown>;
  const stored = (current ?? {}) as Record<string, unknown>;
  const value = (name: string) => pick(given[name], stored[snake(name)] ?? null) as never;
  return relativeDate(
    {
      count: value(names.count),
      unit: value(names.unit),
      direction: value(names.direction),
      event: value(names.event),
    },
    names,
  );
}
