// One status of the board: its name and count, and its cards, virtualized (a column may hold hundreds:
// only the cards in view, and the one being moved, are in the page). The whole column is where a card
// is dropped (dnd-kit's useDroppable).
import { useDroppable } from '@dnd-kit/core';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useId, useRef } from 'react';
import type { Task, TeamLabel } from '../../api/index.ts';
import { Card } from './Card.tsx';

/** A card's height and the gap below it (styles.css, "Board"). */
const CARD_SLOT = 76;

interface ColumnProps {
  status: { id: string; name: string; color: string };
  tasks: Task[];
  code: string;
  labels: Map<string, TeamLabel>;
  now: Date;
  /** The card being moved, kept in the page while it is (its node is what dnd-kit measures). */
  activeId: string | null;
  saving: ReadonlySet<string>;
}

export function Column({ status, tasks, code, labels, now, activeId, saving }: ColumnProps) {
  const headingId = useId();
  const { setNodeRef, isOver } = useDroppable({ id: status.id });
  const scrollRef = useRef<HTMLDivElement>(null);
  const activeIndex = activeId ? tasks.findIndex((task) => task.id === activeId) : -1;
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => CARD_SLOT,
    overscan: 6,
    rangeExtractor: useCallback(
      (range: Parameters<typeof defaultRangeExtractor>[0]) => {
        const indexes = defaultRangeExtractor(range);
        if (activeIndex >= 0 && !indexes.includes(activeIndex))
          return [...indexes, activeIndex].sort((a, b) => a - b);
        return indexes;
      },
      [activeIndex],
    ),
  });
  return (
    <section
      ref={setNodeRef}
      className="column"
      data-over={isOver || undefined}
      aria-labelledby={headingId}
      data-status-id={status.id}
    >
      <h2 id={headingId} className="column-heading">
        <span className="label-dot" style={{ background: status.color }} aria-hidden="true" />
        {status.name} <span className="count">{tasks.length}</span>
      </h2>
      <div ref={scrollRef} className="column-scroll">
        {tasks.length === 0 ? <p className="column-empty muted small">No tasks</p> : null}
        <ul className="column-cards" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const task = tasks[item.index];
            if (!task) return null;
            return (
              <li
                key={task.id}
                className="column-slot"
                style={{ transform: `translateY(${item.start}px)` }}
                aria-setsize={tasks.length}
                aria-posinset={item.index + 1}
              >
                <Card task={task} code={code} labels={labels} now={now} saving={saving.has(task.id)} />
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
