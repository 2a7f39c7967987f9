// Timestamps in requests: ISO 8601 with any offset, or epoch milliseconds (docs/decisions.md §4). Stored and
// returned as UTC ISO strings with milliseconds.
//
// The one date parser at the edge. It accepts only instants in the years 1 to 9999 (UTC), the range
// both databases store and read back and that an ISO string of four-digit years can say, and only
// real calendar dates: 2024-02-30 is refused, not rolled over into March.
import { invalid } from '../http/errors.ts';

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z as epoch milliseconds. */
export const MIN_EPOCH_MS = -62_135_596_800_000;
export const MAX_EPOCH_MS = 253_402_300_799_999;

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const RANGE = 'must be between 0001-01-01 and 9999-12-31 (UTC)';

export function toTimestamp(value: string | number, field: string): string {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw invalid(field, 'epoch milliseconds must be a whole number');
    if (value < MIN_EPOCH_MS || value > MAX_EPOCH_MS) throw invalid(field, RANGE);
    return new Date(value).toISOString();
  }
  const m = ISO.exec(value);
  if (!m) throw invalid(field, 'not an ISO 8601 date-time (2026-12-01T09:00:00Z) or epoch milliseconds');
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((p) => Number(p ?? 0));
  if (year! < 1) throw invalid(field, RANGE);
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) {
    throw invalid(field, `${value.slice(0, 10)} is not a calendar date`);
  }
  if (hour > 23 || minute > 59 || second > 59) throw invalid(field, 'not a valid time of day');
  // A date-time without an offset is UTC (a date alone already is).
  const ms = Date.parse(m[7] ? value : `${value}${value.length > 10 ? 'Z' : ''}`);
  if (Number.isNaN(ms)) throw invalid(field, 'not a valid date');
  // An offset can move a boundary date out of range (9999-12-31T23:00-02:00 is in the year 10000).
  if (ms < MIN_EPOCH_MS || ms > MAX_EPOCH_MS) throw invalid(field, RANGE);
  return new Date(ms).toISOString();
}

export function toTimestampOrNull(value: string | number | null, field: string): string | null {
  return value === null ? null : toTimestamp(value, field);
}
