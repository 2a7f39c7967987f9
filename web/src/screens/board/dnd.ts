// The board's drag and drop settings for dnd-kit: the keys (Space picks up and drops, Esc puts back,
// Enter is left to open a card), where an arrow takes a card picked up by keyboard (← → to the next
// column, ↑ ↓ along its column), and what a screen reader hears.
import type { Announcements, KeyboardCoordinateGetter, KeyboardSensorOptions } from '@dnd-kit/core';

export const KEYBOARD_CODES: KeyboardSensorOptions['keyboardCodes'] = {
  start: ['Space'],
  cancel: ['Escape'],
  end: ['Space'],
};

/** A card's slot height: ↑ and ↓ move by one card. */
const STEP = 76;

/**
 * ← and → put the card over the middle of the column beside the one it is over (columns are found
 * by their measured places, left to right); ↑ and ↓ move it one card along its column.
 */
export const boardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const { collisionRect, droppableRects, droppableContainers, over } = context;
  if (!collisionRect) return undefined;
  if (event.code === 'ArrowDown' || event.code === 'ArrowUp') {
    event.preventDefault();
    const y = currentCoordinates.y + (event.code === 'ArrowDown' ? STEP : -STEP);
    return { x: currentCoordinates.x, y };
  }
  if (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft') return undefined;
  event.preventDefault();
  const columns = droppableContainers
    .getEnabled()
    .flatMap((container) => {
      const rect = droppableRects.get(container.id);
      return rect ? [{ id: container.id, rect }] : [];
    })
    .sort((a, b) => a.rect.left - b.rect.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  const current = over
    ? columns.findIndex((column) => column.id === over.id)
    : columns.findIndex((column) => column.rect.left <= centre && centre <= column.rect.right);
  const target = columns[current + (event.code === 'ArrowRight' ? 1 : -1)];
  if (current < 0 || !target) return undefined;
  return {
    x: target.rect.left + (target.rect.width - collisionRect.width) / 2,
    y: Math.max(target.rect.top, Math.min(currentCoordinates.y, target.rect.bottom - collisionRect.height)),
  };
};

export const INSTRUCTIONS =
  'To move a card, press Space to pick it up, the left and right arrows to choose its status, and Space ' +
  'to drop it; Escape puts it back. Enter opens the task.';

/** What a screen reader hears as a card moves, in the names people use (ENG-142, a status's name). */
export function announcements(
  cardName: (id: string | number) => string,
  statusName: (id: string | number) => string,
): Announcements {
  return {
    onDragStart: ({ active }) => `Picked up ${cardName(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${cardName(active.id)} is over ${statusName(over.id)}.`
        : `${cardName(active.id)} is over no status.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${cardName(active.id)} was dropped in ${statusName(over.id)}.`
        : `${cardName(active.id)} was put back.`,
    onDragCancel: ({ active }) => `Moving ${cardName(active.id)} was canceled; it is back where it was.`,
  };
}
