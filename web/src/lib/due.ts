// My work's groups by due date: overdue, today, this week, later (and no date, last). Pure, so that
// web/test/logic.test.ts checks the edges (a week's end, a date-only due date near midnight).

export type DueGroup = 'overdue' | 'today' | 'week' | 'later';

export const DUE_GROUPS: { key: DueGroup; label: string }[] = [
  { key: 'overdue', label: 'Overdue' },
  { key: 'today', label: 'Today' },
  { key: 'week', label: 'This week' },
  { key: 'later', label: 'Later' },
];

/** A local calendar day as a comparable number (yyyymmdd). */
function dayNumber(year: number, month: number, day: number): number {
  return year * 10_000 + (month + 1) * 100 + day;
}

/**
 * The calendar day a due date falls on. A due date given as a plain date is stored as midnight UTC, and
 * means that day wherever the reader is; any other instant means the reader's local day.
 */
export function dueDay(iso: string): number {
  const at = new Date(iso);
  if (iso.endsWith('T00:00:00.000Z'))
    return dayNumber(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return dayNumber(at.getFullYear(), at.getMonth(), at.getDate());
}

function localDay(at: Date): number {
  return dayNumber(at.getFullYear(), at.getMonth(), at.getDate());
}

/** The last day (Sunday) of the ISO week that `now` is in. */
function endOfWeek(now: Date): number {
  const sunday = new Date(now);
  sunday.setDate(now.getDate() + ((7 - now.getDay()) % 7));
  return localDay(sunday);
}

export function dueGroup(dueDate: string | null, now: Date): DueGroup {
  if (dueDate === null) return 'later';
  const day = dueDay(dueDate);
  const today = localDay(now);
  if (day < today) return 'overdue';
  if (day === today) return 'today';
  if (day <= endOfWeek(now)) return 'week';
  return 'later';
}

export function isOverdue(dueDate: string | null, now: Date): boolean {
  return dueGroup(dueDate, now) === 'overdue';
}

/** Tasks in the four groups, each by due date (earliest first, tasks without a date last). */
export function groupByDue<T extends { dueDate: string | null }>(tasks: T[], now: Date): Map<DueGroup, T[]> {
  const groups = new Map<DueGroup, T[]>(DUE_GROUPS.map(({ key }) => [key, []]));
  const sorted = [...tasks].sort((a, b) => {
    if (a.dueDate === b.dueDate) return 0;
    if (a.dueDate === null) return 1;
    if (b.dueDate === null) return -1;
    return Date.parse(a.dueDate) - Date.parse(b.dueDate);
  });
  for (const task of sorted) groups.get(dueGroup(task.dueDate, now))!.push(task);
  return groups;
}

/** A due date as a person reads it: "21 Nov", with the year when it is not this year's. */
export function formatDue(dueDate: string, now: Date): string {
  const day = dueDay(dueDate);
  const year = Math.floor(day / 10_000);
  const date = new Date(year, (Math.floor(day / 100) % 100) - 1, day % 100);
  return date.toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    ...(year === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}
