// The description: the API's rendered (and sanitized) HTML, and an editor for its Markdown with Write and
// Preview (markdown.ts renders the draft live in the browser). Ctrl/⌘ Enter saves. The editor keeps the
// version it started from: a change someone made meanwhile is a conflict, shown with the draft.
import { useEffect, useId, useRef, useState } from 'react';
import type { Task } from '../../api/index.ts';
import { useRendered } from './Markdown.tsx';
import type { Save } from './useTaskSave.ts';

interface DescriptionProps {
  task: Task;
  disabled: boolean;
  save: Save;
}

export function Description({ task, disabled, save }: DescriptionProps) {
  const [draft, setDraft] = useState<{ base: Task; text: string } | null>(null);
  const headingId = useId();
  const html = task.description.html;
  return (
    <section className="task-section" aria-labelledby={headingId}>
      <div className="section-head">
        <h2 id={headingId}>Description</h2>
        {draft ? null : (
          <button
            type="button"
            className="button button-quiet"
            disabled={disabled}
            onClick={() => setDraft({ base: task, text: task.description.markdown ?? '' })}
          >
            {html ? 'Edit description' : 'Add a description'}
          </button>
        )}
      </div>
      {draft ? (
        <Editor
          text={draft.text}
          onChange={(text) => setDraft({ ...draft, text })}
          onCancel={() => setDraft(null)}
          onSave={async () => {
            const unchanged = draft.text === (draft.base.description.markdown ?? '');
            if (unchanged || (await save(draft.base, { description: draft.text })) !== 'failed') {
              setDraft(null);
            }
          }}
        />
      ) : html ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the API renders and sanitizes it (docs/api.md, "Descriptions").
        <div className="rich-text" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p className="muted">No description yet.</p>
      )}
    </section>
  );
}

interface EditorProps {
  text: string;
  onChange: (text: string) => void;
  onSave: () => Promise<void>;
  onCancel: () => void;
}

function Editor({ text, onChange, onSave, onCancel }: EditorProps) {
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const [saving, setSaving] = useState(false);
  const id = useId();
  const areaRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => areaRef.current?.focus(), []);

  async function submit() {
    setSaving(true);
    try {
      await onSave();
    } finally {
      setSaving(false);
    }
  }
  return (
    <form
      className="description-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <fieldset className="editor-modes">
        <legend className="visually-hidden">Show</legend>
        <button
          type="button"
          className="button button-quiet"
          aria-pressed={mode === 'write'}
          onClick={() => setMode('write')}
        >
          Write
        </button>
        <button
          type="button"
          className="button button-quiet"
          aria-pressed={mode === 'preview'}
          onClick={() => setMode('preview')}
        >
          Preview
        </button>
      </fieldset>
      <label htmlFor={id} className="visually-hidden">
        Description (Markdown)
      </label>
      <textarea
        id={id}
        ref={areaRef}
        className="description-input"
        hidden={mode !== 'write'}
        value={text}
        rows={10}
        maxLength={200_000}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void submit();
          } else if (event.key === 'Escape') {
            onCancel();
          }
        }}
      />
      {mode === 'preview' ? <Preview text={text} /> : null}
      <div className="editor-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <span className="muted small">Markdown · Ctrl/⌘ Enter saves</span>
      </div>
    </form>
  );
}

function Preview({ text }: { text: string }) {
  const html = useRendered(text);
  if (html === null) return <p className="muted">Loading the preview…</p>;
  if (html === '') return <p className="muted rich-text-preview">Nothing to preview.</p>;
  return (
    <section
      className="rich-text rich-text-preview"
      aria-label="Preview"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it with raw HTML off (markdown.ts).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
