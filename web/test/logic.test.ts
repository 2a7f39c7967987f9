// The app's logic that is not a journey: My work's due-date groups (lib/due.ts), the team list's
// filters as the URL holds them and the ones applied in the browser (lib/filters.ts), and the board's
// columns (screens/board/columns.ts). Pure functions, run by Node as they are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dueDay, dueGroup, groupByDue } from '../src/lib/due.ts';
import {
  localFilter,
  localPath,
  needsWholeSet,
  parseTaskListSearch,
  serverFilters,
  sortTasks,
  withFilter,
  withoutFilter,
} from '../src/lib/filters.ts';
import { columnsOf } from '../src/screens/board/columns.ts';

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

const LABEL = '8b0c2d4e-0000-4000-8000-00000000000b';
const PROJECT = '9c0c2d4e-0000-4000-8000-00000000000c';

test('label, project, priority, due range, sort and deleted are read from the URL, well-formed only', () => {
  assert.deepEqual(
    parseTaskListSearch({
      label: LABEL.toUpperCase(),
      project: PROJECT,
      priority: true,
      dueFrom: '2026-11-01',
      dueTo: '2026-11-30',
      sort: 'due',
      deleted: 'true',
    }),
    {
      label: LABEL,
      project: PROJECT,
      priority: true,
      dueFrom: '2026-11-01',
      dueTo: '2026-11-30',
      sort: 'due',
      deleted: true,
    },
  );
  // As typed by hand: flags as 1 or "1", a number for words (the router reads `?q=142` as 142).
  assert.deepEqual(parseTaskListSearch({ priority: 1, deleted: '1', q: 142 }), {
    priority: true,
    deleted: true,
    q: '142',
  });
  assert.deepEqual(
    parseTaskListSearch({
      label: 'bug',
      project: 7,
      priority: false,
      deleted: 'yes',
      dueFrom: '2026-02-30',
      dueTo: '30/11/2026',
      sort: 'random',
    }),
    {},
    'malformed values are dropped',
  );
  assert.deepEqual(parseTaskListSearch({ sort: 'updated' }), {}, "the API's own order is never in the URL");
  assert.deepEqual(
    parseTaskListSearch({ dueFrom: '2026-12-31', dueTo: '2026-01-01' }),
    { dueFrom: '2026-01-01', dueTo: '2026-12-31' },
    'a range given backwards is the same range',
  );
  assert.deepEqual(parseTaskListSearch({ dueTo: '2024-02-29' }), { dueTo: '2024-02-29' }, 'a leap day');
});

test('a filter is set, or removed when emptied; the API gets its own, the browser the rest', () => {
  assert.deepEqual(withFilter({ q: 'a' }, 'label', LABEL), { q: 'a', label: LABEL });
  assert.deepEqual(withFilter({ q: 'a', label: LABEL }, 'label', ''), { q: 'a' });
  assert.deepEqual(withFilter({ priority: true }, 'priority', undefined), {});
  const search = parseTaskListSearch({
    status: LABEL,
    assignee: LABEL,
    label: LABEL,
    project: PROJECT,
    q: 'login',
    deleted: true,
    priority: true,
  });
  assert.deepEqual(serverFilters(search, true), {
    statusId: LABEL,
    assigneeId: LABEL,
    labelId: LABEL,
    projectId: PROJECT,
    text: 'login',
    includeDeleted: true,
  });
  assert.equal('statusId' in serverFilters(search, false), false, 'the board: its columns are the statuses');
  assert.equal(needsWholeSet({ label: LABEL, deleted: true, q: 'x' }), false);
  assert.equal(needsWholeSet({ priority: true }), true);
  assert.equal(needsWholeSet({ dueTo: '2026-01-01' }), true);
  assert.equal(needsWholeSet({ sort: 'name' }), true);
});

const task = (id: string, extra: Partial<{ priority: boolean; dueDate: string | null }> = {}) => ({
  id,
  name: id,
  statusId: 'todo',
  priority: false,
  dueDate: null as string | null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  publicId: 1,
  ...extra,
});

test('priority and the due range are applied in the browser; a range leaves out undated tasks', () => {
  const tasks = [
    task('urgent', { priority: true, dueDate: '2026-11-18T00:00:00.000Z' }),
    task('calm', { dueDate: '2026-11-30T00:00:00.000Z' }),
    task('undated', { priority: true }),
  ];
  const kept = (search: Parameters<typeof localFilter>[0]) =>
    tasks.filter(localFilter(search)).map((t) => t.id);
  assert.deepEqual(kept({}), ['urgent', 'calm', 'undated']);
  assert.deepEqual(kept({ priority: true }), ['urgent', 'undated']);
  assert.deepEqual(kept({ dueFrom: '2026-11-18' }), ['urgent', 'calm'], 'the first day is in the range');
  assert.deepEqual(kept({ dueTo: '2026-11-18' }), ['urgent'], 'the last day too');
  assert.deepEqual(kept({ dueFrom: '2026-11-19', dueTo: '2026-11-30' }), ['calm']);
  assert.deepEqual(kept({ priority: true, dueTo: '2026-12-31' }), ['urgent']);
});

test("sorts: due date (undated last), priority first, name, newest; the API's order by default", () => {
  const tasks = [
    {
      ...task('b-late', { dueDate: '2026-12-01T00:00:00.000Z' }),
      name: 'beta',
      updatedAt: '2026-03-01T00:00:00.000Z',
    },
    { ...task('a-none', { priority: true }), name: 'Alpha', updatedAt: '2026-02-01T00:00:00.000Z' },
    {
      ...task('c-soon', { dueDate: '2026-11-01T00:00:00.000Z' }),
      name: 'gamma',
      createdAt: '2026-05-01T00:00:00.000Z',
    },
  ];
  const ids = (sort: Parameters<typeof sortTasks>[1]) => sortTasks(tasks, sort).map((t) => t.id);
  assert.deepEqual(ids(undefined), ['b-late', 'a-none', 'c-soon']);
  assert.deepEqual(ids('due'), ['c-soon', 'b-late', 'a-none']);
  assert.deepEqual(ids('priority'), ['a-none', 'b-late', 'c-soon']);
  assert.deepEqual(ids('name'), ['a-none', 'b-late', 'c-soon'], 'letter case aside');
  assert.deepEqual(ids('created'), ['c-soon', 'b-late', 'a-none']);
  assert.equal(tasks[0]!.id, 'b-late', 'a copy is sorted, not the list given');
});

test('the board’s columns: one per status in order, moves on their way shown where they go', () => {
  const tasks = [
    { ...task('one'), statusId: 'todo', updatedAt: '2026-03-01T00:00:00.000Z' },
    { ...task('two'), statusId: 'todo', updatedAt: '2026-02-01T00:00:00.000Z' },
    { ...task('three', { priority: true }), statusId: 'doing', updatedAt: '2026-01-01T00:00:00.000Z' },
    { ...task('lost'), statusId: 'removed-status' },
  ];
  const ids = (cols: ReturnType<typeof columnsOf>) => cols.map((c) => [c.statusId, c.tasks.map((t) => t.id)]);
  assert.deepEqual(ids(columnsOf(tasks, ['todo', 'doing', 'done'], new Map(), {})), [
    ['todo', ['one', 'two']],
    ['doing', ['three']],
    ['done', []],
  ]);
  const moving = new Map([['two', { statusId: 'doing', at: '2026-04-01T00:00:00.000Z' }]]);
  assert.deepEqual(ids(columnsOf(tasks, ['todo', 'doing', 'done'], moving, {})), [
    ['todo', ['one']],
    ['doing', ['two', 'three']],
    ['done', []],
  ]);
  assert.deepEqual(ids(columnsOf(tasks, ['todo', 'doing'], moving, { priority: true })), [
    ['todo', []],
    ['doing', ['three']],
  ]);
  assert.equal(tasks[1]!.statusId, 'todo', 'the tasks given are not changed');
});
