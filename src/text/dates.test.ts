// The one date parser at the edge: years 1 to 9999 in both forms, real calendar dates only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../http/errors.ts';
import { MAX_EPOCH_MS, MIN_EPOCH_MS, toTimestamp } from './dates.ts';

const refused = (value: string | number) =>
  assert.throws(
    () => toTimestamp(value, 'dueDate'),
    (e: unknown) =>
      e instanceof AppError && e.code === 'validation_failed' && e.errors?.[0]?.path === 'dueDate',
    String(value),
  );

test('the range is 0001-01-01 to 9999-12-31 UTC, in both forms, and no further', () => {
  assert.equal(toTimestamp(MIN_EPOCH_MS, 'd'), '0001-01-01T00:00:00.000Z');
  assert.equal(toTimestamp(MAX_EPOCH_MS, 'd'), '9999-12-31T23:59:59.999Z');
  assert.equal(toTimestamp('0001-01-01', 'd'), '0001-01-01T00:00:00.000Z');
  assert.equal(toTimestamp('9999-12-31T23:59:59.999Z', 'd'), '9999-12-31T23:59:59.999Z');
  for (const value of [MIN_EPOCH_MS - 1, MAX_EPOCH_MS + 1, 8.64e15, -8.64e15, '0000-12-31', '10000-01-01'])
    refused(value);
  // An offset can carry a date over either edge.
  refused('9999-12-31T23:30:00-01:00');
  refused('0001-01-01T00:30:00+01:00');
  assert.equal(toTimestamp('0001-01-01T00:30:00-01:00', 'd'), '0001-01-01T01:30:00.000Z');
});

test('impossible calendar dates and times are refused, not rolled over', () => {
  for (const value of [
    '2024-02-30',
    '2023-02-29',
    '2100-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-01-00',
    '2026-13-01',
  ]) {
    refused(value);
  }
  assert.equal(toTimestamp('2024-02-29', 'd'), '2024-02-29T00:00:00.000Z');
  assert.equal(toTimestamp('2000-02-29', 'd'), '2000-02-29T00:00:00.000Z');
  for (const value of ['2026-11-21T24:00Z', '2026-11-21T23:60Z', '2026-11-21T23:59:60Z']) refused(value);
});

test('forms: any offset, a date alone, a date-time without offset is UTC, epoch milliseconds', () => {
  assert.equal(toTimestamp('2026-11-21T10:00:00+02:00', 'd'), '2026-11-21T08:00:00.000Z');
  assert.equal(toTimestamp('2026-11-21T10:00:00.5+0530', 'd'), '2026-11-21T04:30:00.500Z');
  assert.equal(toTimestamp('2026-11-21T10:00', 'd'), '2026-11-21T10:00:00.000Z');
  assert.equal(toTimestamp('2026-11-21', 'd'), '2026-11-21T00:00:00.000Z');
  assert.equal(toTimestamp(1795305600000, 'd'), '2026-11-22T00:00:00.000Z');
  for (const value of ['tomorrow', '2026/11/21', '21-11-2026', '', 1.5]) refused(value);
});
