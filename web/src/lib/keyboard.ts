// Keyboard shortcuts, the app's rules for them in one place: a single-key shortcut never fires while the
// person types (an input, a textarea, a select, anything contenteditable), nor with Ctrl, ⌘ or Alt held,
// nor behind an open modal dialog (the palette, the shortcuts list, another feature's dialog), which
// takes its own keys. useListNavigation moves a highlighted row with J and K and opens it with Enter.
import {
  type KeyboardEvent as ReactKeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/** True when the key goes to something the person types into. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'reset', 'submit', 'color', 'file', 'range'].includes(
      target.type,
    );
  }
  return false;
}

/** A modal dialog is open (native `<dialog>` shown modal, or an ARIA one): its keys are its own. */
function modalOpen(): boolean {
  return document.querySelector('dialog:modal, [aria-modal="true"]') !== null;
}

/** A plain key press a single-key shortcut may take: no modifier, not typing, no modal open. */
export function isPlainShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented) return false;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  return !isTyping(event.target) && !modalOpen();
}

/** Ctrl+K, or ⌘K on a Mac: the palette's chord, which works even while typing. */
export function isPaletteChord(event: KeyboardEvent): boolean {
  return (
    (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k'
  );
}

interface ListNavigationOptions {
  /** How many rows the list has (a virtualized list: all of them, rendered or not). */
  count: number;
  /** Opens the row at this index (Enter on a highlighted row). */
  onOpen: (index: number) => void;
  /** For a virtualized list: bring the row at this index into the page before it is focused. */
  scrollToIndex?: (index: number) => void;
}

interface RowProps {
  'data-nav-list': string;
  'data-nav-index': number;
  'data-active': boolean;
  tabIndex: number;
  onFocus: () => void;
  onKeyDown: (event: ReactKeyboardEvent) => void;
}

/**
 * J and K move the highlight down and up a list (from anywhere on the page, unless the person types),
 * by moving focus to the row, so a screen reader reads it and the browser keeps it in view; Enter on
 * the highlighted row opens it. Spread `rowProps(index)` on each row's element.
 */
export function useListNavigation({ count, onOpen, scrollToIndex }: ListNavigationOptions) {
  const listId = useId();
  const [active, setActive] = useState(-1);
  const activeRef = useRef(active);
  activeRef.current = active;
  const scrollRef = useRef(scrollToIndex);
  scrollRef.current = scrollToIndex;

  const focusRow = useCallback(
    (index: number) => {
      setActive(index);
      scrollRef.current?.(index);
      // A virtualized row may only be in the page after the scroll has rendered it.
      const find = () =>
        document.querySelector<HTMLElement>(`[data-nav-list="${listId}"][data-nav-index="${index}"]`);
      const row = find();
      if (row) row.focus();
      else requestAnimationFrame(() => requestAnimationFrame(() => find()?.focus()));
    },
    [listId],
  );

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (count === 0 || !isPlainShortcut(event)) return;
      const key = event.key.toLowerCase();
      if (key !== 'j' && key !== 'k') return;
      event.preventDefault();
      const current = activeRef.current;
      const next =
        current < 0 ? 0 : key === 'j' ? Math.min(current + 1, count - 1) : Math.max(current - 1, 0);
      focusRow(next);
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [count, focusRow]);

  const rowProps = (index: number): RowProps => ({
    'data-nav-list': listId,
    'data-nav-index': index,
    'data-active': index === active,
    tabIndex: -1,
    onFocus: () => setActive(index),
    onKeyDown: (event) => {
      if (event.key !== 'Enter' || event.target !== event.currentTarget) return;
      event.preventDefault();
      onOpen(index);
    },
  });
  return { active, rowProps };
}
