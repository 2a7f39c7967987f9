// Pieces every settings screen uses: a secret shown once with a copy button, a two-step confirm for
// what cannot be undone, dates in the reader's words, and the guard of the owners' screens.
import { getRouteApi } from '@tanstack/react-router';
import { Check, Copy } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTitle } from '../../components/useTitle.ts';

const appRoute = getRouteApi('/app');

/** The signed-in person (the app layout's, refreshed when the router is invalidated). */
export function useMe() {
  return appRoute.useRouteContext().me;
}

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function when(iso: string | null | undefined, never = 'Never'): string {
  return iso ? whenFormat.format(new Date(iso)) : never;
}

/** A settings screen: its heading (the tab's title too), a line saying what it is for, its content. */
export function SettingsPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  useTitle(`${title} · Settings`);
  return (
    <section className="settings-section" aria-labelledby="settings-heading">
      <h2 id="settings-heading">{title}</h2>
      <p className="muted settings-intro">{intro}</p>
      {children}
    </section>
  );
}

/** The owners' screens: others are told plainly (the API refuses them anyway). */
export function OwnerOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.role === 'owner') return children;
  return (
    <div className="empty">
      <p>Only the workspace’s owners manage this.</p>
    </div>
  );
}

/**
 * A secret the API shows once (an API token, a webhook secret, an invitation link): shown here, with a
 * copy button, and kept nowhere else; closing it forgets it.
 */
export function SecretOnce({
  label,
  secret,
  note,
  onDone,
}: {
  label: string;
  secret: string;
  note: ReactNode;
  onDone: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <section className="secret-once" aria-label={label}>
      <label htmlFor={id} className="secret-label">
        {label}
      </label>
      <div className="secret-row">
        <input
          id={id}
          className="secret-value"
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button" onClick={copy}>
          {copied === 'yes' ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="small" aria-live="polite">
        {copied === 'failed' ? 'The browser did not allow copying: select the text and copy it. ' : ''}
        {note}
      </p>
      <button type="button" className="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

/** A button for what cannot be undone: the first press asks, the second does it. */
export function ConfirmButton({
  label,
  confirmLabel,
  question,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // The button pressed is replaced by the question: focus goes to its answer, not to the page.
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className="button" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <fieldset className="confirm">
      <legend className="visually-hidden">{question}</legend>
      <span className="small" aria-hidden="true">
        {question}
      </span>
      <button
        ref={confirmRef}
        type="button"
        className="button button-danger"
        disabled={disabled}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
