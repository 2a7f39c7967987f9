// A task on the board, in two lines: its id, labels, priority, due date and assignee, then its name.
// The card is what is dragged (dnd-kit's useDraggable): picked up with Space or the pointer; a click or
// Enter opens the task's page. A deleted task (shown with "Show deleted") cannot be moved.
import { useDraggable } from '@dnd-kit/core';
import { useNavigate } from '@tanstack/react-router';
import type { KeyboardEvent } from 'react';
import type { Task, TeamLabel } from '../../api/index.ts';
import { LabelChips, PriorityFlag } from '../../components/TaskRow.tsx';
import { formatDue, isOverdue } from '../../lib/due.ts';

interface CardProps {
  task: Task;
  code: string;
  labels: Map<string, TeamLabel>;
  now: Date;
  /** The move of this card is on its way. */
  saving?: boolean;
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/);
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words.at(-1)?.[0] ?? '') : '')).toUpperCase();
}

/** What the card shows; also the drag overlay's picture of it. */
export function CardFace({ task, code, labels, now }: CardProps) {
  const overdue = isOverdue(task.dueDate, now) && task.status?.stage !== 'completed';
  return (
    <>
      <span className="card-line">
        <span className="task-id">
          {code}-{task.publicId}
        </span>
        {task.deletedAt ? <span className="card-deleted">Deleted</span> : null}
        <span className="card-labels">
          <LabelChips ids={task.labelIds} labels={labels} />
        </span>
        {task.priority ? <PriorityFlag /> : null}
        {task.dueDate ? (
          <span className={overdue ? 'task-due overdue' : 'task-due'}>
            {overdue ? <span className="visually-hidden">Overdue, due </span> : null}
            <time dateTime={task.dueDate}>{formatDue(task.dueDate, now)}</time>
          </span>
        ) : null}
        {task.assignee ? (
          <span className="avatar" title={task.assignee.name}>
            <span aria-hidden="true">{initials(task.assignee.name)}</span>
            <span className="visually-hidden">Assigned to {task.assignee.name}</span>
          </span>
        ) : null}
      </span>
      <span className="card-name">{task.name}</span>
    </>
  );
}

export function Card(props: CardProps) {
  const { task, saving } = props;
  const navigate = useNavigate();
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: task.id,
    disabled: task.deletedAt !== null,
    attributes: { roleDescription: 'card' },
  });
  const open = () => void navigate({ to: '/tasks/$taskKey', params: { taskKey: String(task.publicId) } });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && !isDragging) {
      event.preventDefault();
      open();
      return;
    }
    listeners?.onKeyDown?.(event);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dnd-kit's attributes make it role="button", tabIndex 0 (not a <button>: Space would click it as it is dropped).
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onKeyDown={onKeyDown}
      onClick={open}
      className="card"
      data-task-id={task.id}
      data-dragging={isDragging || undefined}
      aria-busy={saving || undefined}
    >
      <CardFace {...props} />
    </div>
  );
}
