// The app's logic that is not a journey: My work's due-date groups (lib/due.ts) and the team list's
// filters as the URL holds them (lib/filters.ts). Pure functions, run by Node as they are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dueDay, dueGroup, groupByDue } from '../src/lib/due.ts';
import { localPath, parseTaskListSearch, withoutFilter } from '../src/lib/filters.ts';

// A Wednesday afternoon, local time.
const now = new Date(2026, 10, 18, 15, 30);
const local = (day: number, hour = 12) => new Date(2026, 10, day, hour).toISOString();

test('due dates fall in overdue, today, this week (to Sunday) or later; none is later', () => {
  assert.equal(dueGroup(local(17, 23), now), 'overdue');
  assert.equal(dueGroup(local(18, 0), now), 'today');
  assert.equal(dueGroup(local(18, 9), now), 'today', 'earlier today is still today, not overdue');
  assert.equal(dueGroup(local(19), now), 'week');
  assert.equal(dueGroup(local(22, 23), now), 'week', 'Sunday ends the week');
  assert.equal(dueGroup(local(23, 0), now), 'later', 'Monday starts the next');
  assert.equal(dueGroup(null, now), 'later');
  const sunday = new Date(2026, 10, 22, 10);
  assert.equal(dueGroup(local(22, 20), sunday), 'today');
  assert.equal(dueGroup(local(23), sunday), 'later');
});

test('a date-only due date (midnight UTC) is that calendar day in every time zone', () => {
  assert.equal(dueDay('2026-11-18T00:00:00.000Z'), 20261118);
  assert.equal(dueGroup('2026-11-18T00:00:00.000Z', now), 'today');
  assert.equal(dueGroup('2026-11-17T00:00:00.000Z', now), 'overdue');
});

test('groupByDue sorts each group by due date, tasks without one last', () => {
  const tasks = [
    { id: 'none', dueDate: null },
    { id: 'far', dueDate: local(30) },
    { id: 'late2', dueDate: local(16) },
    { id: 'late1', dueDate: local(2) },
    { id: 'fri', dueDate: local(20) },
    { id: 'thu', dueDate: local(19) },
  ];
  const groups = groupByDue(tasks, now);
  const ids = (key: 'overdue' | 'today' | 'week' | 'later') => groups.get(key)!.map((t) => t.id);
  assert.deepEqual(ids('overdue'), ['late1', 'late2']);
  assert.deepEqual(ids('today'), []);
  assert.deepEqual(ids('week'), ['thu', 'fri']);
  assert.deepEqual(ids('later'), ['far', 'none']);
});

test('the URL keeps only well-formed filters: ids as lower-case UUIDs, text trimmed and bounded', () => {
  const id = '3F1C2D4E-0000-4000-8000-00000000000A';
  assert.deepEqual(parseTaskListSearch({ status: id, assignee: id, q: '  login page ' }), {
    status: id.toLowerCase(),
    assignee: id.toLowerCase(),
    q: 'login page',
  });
  assert.deepEqual(parseTaskListSearch({ status: 'todo', assignee: 42, q: '   ', other: 'x' }), {});
  assert.equal(parseTaskListSearch({ q: 'x'.repeat(500) }).q?.length, 200);
  assert.deepEqual(withoutFilter({ status: id, q: 'a' }, 'status'), { q: 'a' });
});

test('after signing in, only a path of this app is a place to return to', () => {
  assert.equal(localPath('/teams/ENG/tasks?q=a'), '/teams/ENG/tasks?q=a');
  assert.equal(localPath('/'), '/');
  for (const value of [
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example/',
    'teams',
    '',
    7,
    undefined,
  ])
    assert.equal(localPath(value), undefined, String(value));
});
