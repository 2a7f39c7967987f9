import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppError } from '../http/errors.ts';
import { resolveDate, shift } from './relative-dates.ts';

test('days and weeks are exact, months follow the calendar and clamp to the month', () => {
  const at = '2026-01-31T09:30:00.000Z';
  assert.equal(shift(at, { count: 3, unit: 'days', direction: 'after' }), '2026-02-03T09:30:00.000Z');
  assert.equal(shift(at, { count: 2, unit: 'weeks', direction: 'before' }), '2026-01-17T09:30:00.000Z');
  assert.equal(shift(at, { count: 1, unit: 'months', direction: 'after' }), '2026-02-28T09:30:00.000Z');
  assert.equal(
    shift('2028-01-31T00:00:00.000Z', { count: 1, unit: 'months', direction: 'after' }),
    '2028-02-29T00:00:00.000Z',
  );
  assert.equal(shift(at, { count: 13, unit: 'months', direction: 'before' }), '2024-12-31T09:30:00.000Z');
  assert.equal(shift('9999-12-01T00:00:00.000Z', { count: 1, unit: 'months', direction: 'after' }), null);
});

test('resolveDate: relative first, then the calendar date, and null without an anchor', () => {
  const relative = { count: 2, unit: 'days', direction: 'before', event: 'project_due' } as const;
  assert.equal(
    resolveDate(relative, '2026-05-01', { project_due: '2026-06-10T00:00:00.000Z' }, 'dueDate'),
    '2026-06-08T00:00:00.000Z',
  );
  assert.equal(resolveDate(relative, '2026-05-01', { project_due: null }, 'dueDate'), null);
  assert.equal(resolveDate(null, '2026-05-01', {}, 'dueDate'), '2026-05-01T00:00:00.000Z');
  assert.equal(resolveDate(null, null, {}, 'dueDate'), null);
});

test('resolveDate: a date outside the years 1 to 9999 is a 400 naming the field, never null', () => {
  const after = { count: 1, unit: 'days', direction: 'after', event: 'project_due' } as const;
  const before = { count: 1, unit: 'months', direction: 'before', event: 'project_start' } as const;
  const fieldOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as AppError).errors?.[0]?.path;
    }
    return 'no error';
  };
  assert.equal(
    fieldOf(() => resolveDate(after, null, { project_due: '9999-12-31T00:00:00.000Z' }, 'dueDate')),
    'dueDate',
  );
  assert.equal(
    fieldOf(() => resolveDate(before, null, { project_start: '0001-01-20T00:00:00.000Z' }, 'startDate')),
    'startDate',
  );
});
