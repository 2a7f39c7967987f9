// The task's history, newest first, from the events feed (api/tasks.ts historyQuery): made, each
// change (which fields, and the name or status it had before), deleted, restored, commented. The feed
// keeps events for its retention period (7 days by default), so older history is not shown.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { Task } from '../../api/index.ts';
import { type FeedEvent, type Group, historyQuery, type TaskChanges } from '../../api/tasks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { describeValue, FIELD_NAMES } from './values.ts';

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function History({ task, group }: { task: Task; group: Group | undefined }) {
  const history = useQuery(historyQuery(task.id));
  const headingId = useId();
  return (
    <section className="task-section" aria-labelledby={headingId}>
      <h2 id={headingId}>History</h2>
      {history.isPending ? <SkeletonRows count={3} label="Loading the history" /> : null}
      {history.isError ? <ErrorNotice error={history.error} /> : null}
      {history.data ? (
        <>
          <ol className="history">
            {[...history.data.events].reverse().map((event) => (
              <li key={event.id}>
                <span>{describeEvent(event, task, group)}</span>{' '}
                <time className="muted small" dateTime={event.createdAt}>
                  {WHEN.format(new Date(event.createdAt))}
                </time>
              </li>
            ))}
          </ol>
          <p className="muted small">
            {history.data.partial
              ? 'Showing the most recent changes that could be read; older ones are not shown.'
              : 'Changes are kept for a week.'}
          </p>
        </>
      ) : null}
    </section>
  );
}

/** Fields whose change is said with the value it had before. */
const WITH_BEFORE = new Set<keyof TaskChanges>(['name', 'statusId', 'assignedToId', 'dueDate']);

function describeEvent(event: FeedEvent, task: Task, group: Group | undefined): string {
  switch (event.type) {
    case 'task.created':
      return 'Created';
    case 'task.deleted':
      return 'Deleted';
    case 'task.restored':
      return 'Restored';
    case 'post.created': {
      const post = event.data as { owner?: { name: string } | null; parentId?: string | null };
      const who = post.owner?.name ?? 'Someone';
      return post.parentId ? `${who} replied to a comment` : `${who} commented`;
    }
    case 'task.updated':
      return describeChange(event, task, group);
    default:
      return event.type;
  }
}

function describeChange(event: FeedEvent, task: Task, group: Group | undefined): string {
  const before = ('previousAttributes' in event ? event.previousAttributes : null) ?? {};
  const fields = Object.keys(before).filter((key): key is keyof TaskChanges => key in FIELD_NAMES);
  if (fields.length === 0) return 'Changed';
  const parts = fields.map((field) => {
    const name = FIELD_NAMES[field].toLowerCase();
    if (!WITH_BEFORE.has(field)) return name;
    return `${name} (was ${describeValue(field, before[field], task, group)})`;
  });
  return `Changed ${parts.join(', ')}`;
}
