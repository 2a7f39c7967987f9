// The app-wide keys, mounted once in the signed-in layout: Ctrl/⌘ K opens the palette (even while
// typing: it is a chord), `?` lists the shortcuts, `C` asks for the create-task dialog (the feature
// that owns it listens, lib/commands.ts). Single keys follow lib/keyboard.ts's rules.
import { useLocation } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { requestCreateTask } from '../../lib/commands.ts';
import { isPaletteChord, isPlainShortcut } from '../../lib/keyboard.ts';
import { teamKeyOf } from './commands.ts';
import { Modal } from './Modal.tsx';

// The palette (cmdk and its searches) loads the first time it opens, not with the app's first screen.
const Palette = lazy(() => import('./Palette.tsx').then((module) => ({ default: module.Palette })));

const MAC = /Mac|iPhone|iPad/.test(navigator.userAgent);
const PALETTE_KEYS = MAC ? ['⌘', 'K'] : ['Ctrl', 'K'];

/** What the shortcuts dialog lists, in the order a person learns them. */
const SHORTCUTS: { keys: string[][]; what: string }[] = [
  { keys: [PALETTE_KEYS], what: 'Open the command palette: search and commands' },
  { keys: [['C']], what: 'Create a task' },
  { keys: [['J'], ['K']], what: 'Move down or up a list' },
  { keys: [['Enter']], what: 'Open the highlighted task or result' },
  { keys: [['Esc']], what: 'Close a dialog or panel' },
  { keys: [['?']], what: 'Show these shortcuts' },
  { keys: [['Space']], what: 'On the board: pick up the focused card, and drop it' },
  { keys: [['←'], ['→']], what: 'On the board: move the picked-up card to another status' },
  { keys: [['↑'], ['↓']], what: 'On the board: move the picked-up card within its column' },
  { keys: [['Esc']], what: 'On the board: put the picked-up card back' },
];

function Keys({ keys }: { keys: string[][] }) {
  return (
    <>
      {keys.map((chord, i) => (
        <span key={chord.join('+')} className="shortcut-chord">
          {i > 0 ? <span className="muted"> or </span> : null}
          {chord.map((key, j) => (
            <span key={key}>
              {j > 0 ? '+' : null}
              <kbd>{key}</kbd>
            </span>
          ))}
        </span>
      ))}
    </>
  );
}

function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const headingId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={headingId} className="shortcuts">
      <div className="shortcuts-head">
        <h2 id={headingId}>Keyboard shortcuts</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          <X size={18} aria-hidden="true" />
        </button>
      </div>
      <p className="muted small">Single keys do nothing while you type in a field.</p>
      <table className="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.what}>
              <td>
                <Keys keys={shortcut.keys} />
              </td>
              <td>{shortcut.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}

/** The palette and the shortcuts dialog, and the keys that open them. */
export function GlobalKeys() {
  const [palette, setPalette] = useState(false);
  const [paletteUsed, setPaletteUsed] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (isPaletteChord(event)) {
        // The browser's own Ctrl+K (its search bar) gives way inside the app.
        event.preventDefault();
        setShortcuts(false);
        setPaletteUsed(true);
        setPalette((open) => !open);
        return;
      }
      if (!isPlainShortcut(event)) return;
      if (event.key === '?') {
        event.preventDefault();
        setShortcuts(true);
      } else if (event.key === 'c' || event.key === 'C') {
        event.preventDefault();
        const teamKey = teamKeyOf(pathRef.current);
        requestCreateTask(teamKey ? { teamKey } : {});
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const closePalette = useCallback(() => setPalette(false), []);
  const closeShortcuts = useCallback(() => setShortcuts(false), []);
  return (
    <>
      {paletteUsed ? (
        <Suspense fallback={null}>
          <Palette open={palette} onClose={closePalette} />
        </Suspense>
      ) : null}
      <ShortcutsDialog open={shortcuts} onClose={closeShortcuts} />
    </>
  );
}
