// A modal dialog on the browser's own <dialog> (showModal): the rest of the page is inert while it is
// open, focus stays inside, Esc closes it, and it sits in the top layer. Chosen over cmdk's
// Command.Dialog (Radix), whose scroll lock injects a <style> element that the app's CSP refuses.
// Focus goes to its element marked data-autofocus, if any, and back where it was when it closes.
import { type ReactNode, useEffect, useRef } from 'react';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name, when it has no heading of its own. */
  label?: string;
  /** The id of its heading, when it has one. */
  labelledBy?: string;
  className: string;
  children: ReactNode;
}

export function Modal({ open, onClose, label, labelledBy, className, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // The browser focuses the first focusable thing; a dialog may name a better one (the palette's field).
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (before?.isConnected) before.focus();
    };
  }, [open]);

  return (
    // A click on the backdrop lands on the <dialog> itself (its content fills the box): it closes it,
    // as Esc does by keyboard (the browser's own cancel).
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc is the keyboard's way, handled by <dialog>.
    <dialog
      ref={ref}
      className={className}
      aria-label={label}
      aria-labelledby={labelledBy}
      onClose={() => closeRef.current()}
      onClick={(event) => {
        if (event.target === event.currentTarget) closeRef.current();
      }}
    >
      {open ? <div className="modal-body">{children}</div> : null}
    </dialog>
  );
}
