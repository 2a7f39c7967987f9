// Timestamps in requests: ISO 8601 with any offset, or epoch milliseconds (decisions §4). Stored and
// returned as UTC ISO strings with milliseconds.
import { invalid } from '../http/errors.ts';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

export function toTimestamp(value: string | number, path: string): string {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || Math.abs(value) > 8.64e15)
      throw invalid(path, 'not a valid epoch milliseconds');
    return new Date(value).toISOString();
  }
  if (!ISO.test(value)) throw invalid(path, 'not an ISO 8601 date-time or epoch milliseconds');
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid(path, 'not a valid date');
  return new Date(ms).toISOString();
}

export function toTimestampOrNull(value: string | number | null, path: string): string | null {
  return value === null ? null : toTimestamp(value, path);
}
