import { Link } from '@tanstack/react-router';
import { Circle, CircleCheck, CircleDashed, CircleDot, CircleX, Flag } from 'lucide-react';
import type { Task, TeamLabel } from '../api/index.ts';
import { formatDue, isOverdue } from '../lib/due.ts';

const STAGE_ICONS = {
  backlog: CircleDashed,
  unstarted: Circle,
  started: CircleDot,
  completed: CircleCheck,
  canceled: CircleX,
} as const;

function StatusIcon({ status }: { status: Task['status'] }) {
  const Icon = status ? STAGE_ICONS[status.stage] : Circle;
  return (
    <span className="status-icon">
      <Icon size={14} aria-hidden="true" style={status ? { color: status.color } : undefined} />
      <span className="visually-hidden">{status?.name ?? 'Unknown status'}</span>
    </span>
  );
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/);
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words.at(-1)?.[0] ?? '') : '')).toUpperCase();
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="avatar" title={name}>
      <span aria-hidden="true">{initials(name)}</span>
      <span className="visually-hidden">Assigned to {name}</span>
    </span>
  );
}

/** A task's labels as chips (its team's colours), in the task's order; an unknown id is left out. */
export function LabelChips({ ids, labels }: { ids: string[]; labels: Map<string, TeamLabel> }) {
  return ids.map((id) => {
    const label = labels.get(id);
    return label ? (
      <span key={id} className="label-chip">
        <span className="label-dot" style={{ background: label.color }} aria-hidden="true" />
        {label.name}
      </span>
    ) : null;
  });
}

/** The high-priority flag, named for screen readers. */
export function PriorityFlag() {
  return (
    <span className="task-priority" title="Priority">
      <Flag size={14} aria-hidden="true" />
      <span className="visually-hidden">Priority</span>
    </span>
  );
}

interface TaskRowProps {
  task: Task;
  /** The team's (or area's) code, for the public id: ENG-142. */
  code: string | undefined;
  labels: Map<string, TeamLabel>;
  now: Date;
}

/** One task as a dense row: status, public id, name (a link to its page), labels, assignee, due, priority. */
export function TaskRow({ task, code, labels, now }: TaskRowProps) {
  const overdue = isOverdue(task.dueDate, now) && task.status?.stage !== 'completed';
  return (
    <div className="task-row">
      <StatusIcon status={task.status} />
      <span className="task-id">{code ? `${code}-${task.publicId}` : task.publicId}</span>
      {/* The name links to the task's page, and its box covers the row (styles.css), so a click
          anywhere on the row opens it; not a tab stop: a list is reached with J/K and Enter. */}
      <Link
        to="/tasks/$taskKey"
        params={{ taskKey: String(task.publicId) }}
        className="task-name task-link"
        tabIndex={-1}
      >
        {task.name}
      </Link>
      <span className="task-labels">
        <LabelChips ids={task.labelIds} labels={labels} />
      </span>
      {task.priority ? <PriorityFlag /> : <span className="task-priority" />}
      <span className={overdue ? 'task-due overdue' : 'task-due'}>
        {task.dueDate ? (
          <>
            {overdue ? <span className="visually-hidden">Overdue, due </span> : null}
            <time dateTime={task.dueDate}>{formatDue(task.dueDate, now)}</time>
          </>
        ) : null}
      </span>
      <span className="task-assignee">{task.assignee ? <Avatar name={task.assignee.name} /> : null}</span>
    </div>
  );
}
