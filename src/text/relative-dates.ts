// Template dates (docs/templates.md): calendar dates as `YYYY-MM-DD`, and relative dates, "N units
// before or after an event", resolved into a timestamp when a task or project is made from a template.
import type { DateDirection, DateEvent, DateUnit } from '../db/types.ts';
import { invalid } from '../http/errors.ts';
import { MAX_EPOCH_MS, MIN_EPOCH_MS, toTimestamp } from './dates.ts';

export const DATE_UNITS = ['days', 'weeks', 'months'] as const;
export const DATE_DIRECTIONS = ['before', 'after'] as const;
export const DATE_EVENTS = ['task_created', 'project_created', 'project_start', 'project_due'] as const;

/** A template's calendar date: `YYYY-MM-DD`, a real date (2025-02-29 is refused). */
export function calendarDate(value: string, field: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw invalid(field, 'must be a date as YYYY-MM-DD');
  toTimestamp(value, field);
  return value;
}

export interface RelativeDate {
  count: number;
  unit: DateUnit;
  direction: DateDirection;
  event: DateEvent;
}

/** The four fields of a relative date: all of them, or none (the template has no relative date). */
export function relativeDate(
  fields: {
    count: number | null | undefined;
    unit: DateUnit | null | undefined;
    direction: DateDirection | null | undefined;
    event: DateEvent | null | undefined;
  },
  names: { count: string; unit: string; direction: string; event: string },
): RelativeDate | null {
  const given = Object.entries(fields).filter(([, v]) => v !== null && v !== undefined);
  if (given.length === 0) return null;
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined)
      throw invalid(
        names[key as keyof typeof names],
        `is required with ${names[given[0]![0] as keyof typeof names]}`,
      );
  }
  return fields as RelativeDate;
}

/**
 * `anchor` moved by the relative date: days and weeks as exact multiples of 24 hours, months by the
 * calendar, keeping the day of the month where it exists (January 31 + 1 month is the last day of
 * February) and the time of day. Null past the years 1 to 9999.
 */
export function shift(anchor: string, r: Pick<RelativeDate, 'count' | 'unit' | 'direction'>): string | null {
  const sign = r.direction === 'before' ? -1 : 1;
  const date = new Date(anchor);
  if (r.unit === 'months') {
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + sign * r.count);
    const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, last));
  } else {
    date.setTime(date.getTime() + sign * r.count * (r.unit === 'weeks' ? 7 : 1) * 86_400_000);
  }
  const ms = date.getTime();
  return ms < MIN_EPOCH_MS || ms > MAX_EPOCH_MS || Number.isNaN(ms) ? null : date.toISOString();
}

/** What a relative date's event is, at the moment something is made from a template. */
export type Anchors = Partial<Record<DateEvent, string | null>>;

/**
 * A template date: the relative one when the template has one (null when its event has no date, such
 * as a project without a start), otherwise the calendar date at midnight UTC, otherwise null. A
 * relative date that lands outside the years 1 to 9999 is a 400 naming `field`, never an empty date:
 * the caller asked for a date and would silently get none.
 */
export function resolveDate(
  relative: RelativeDate | null,
  calendar: string | null,
  anchors: Anchors,
  field: string,
): string | null {
  if (relative) {
    const anchor = anchors[relative.event];
    if (!anchor) return null;
    const moved = shift(anchor, relative);
    if (moved === null)
      throw invalid(
        field,
        `${relative.count} ${relative.unit} ${relative.direction} ${relative.event} (${anchor.slice(0, 10)}) falls outside 0001-01-01 to 9999-12-31`,
      );
    return moved;
  }
  return calendar === null ? null : `${calendar}T00:00:00.000Z`;
}
