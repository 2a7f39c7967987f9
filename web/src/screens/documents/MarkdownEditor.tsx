// A Markdown field with Write and Preview: a textarea, and the draft rendered as the API will render it
// (near enough: markdown.ts). Ctrl/⌘ Enter submits the form the editor is in.
import { useId, useState } from 'react';
import { renderMarkdown } from './markdown.ts';

interface MarkdownEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/⌘ Enter: what the form's main button does. */
  onSubmit?: () => void;
  rows?: number;
  hint?: string;
}

export function MarkdownEditor({ label, value, onChange, onSubmit, rows = 12, hint }: MarkdownEditorProps) {
  const [preview, setPreview] = useState(false);
  const id = useId();
  return (
    <div className="markdown-editor">
      <div className="markdown-editor-head">
        <label htmlFor={id} className={preview ? 'visually-hidden' : undefined}>
          {label}
        </label>
        {preview ? <span className="markdown-editor-label">{label}</span> : null}
        <fieldset className="segmented">
          <legend className="visually-hidden">{label}: show</legend>
          <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>
            Write
          </button>
          <button type="button" aria-pressed={preview} onClick={() => setPreview(true)}>
            Preview
          </button>
        </fieldset>
      </div>
      {/* The textarea stays in the page while previewing (hidden) so that the draft and its undo
          history are the browser's, not rebuilt. */}
      <textarea
        id={id}
        className="markdown-input"
        rows={rows}
        value={value}
        hidden={preview}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && onSubmit) {
            event.preventDefault();
            onSubmit();
          }
        }}
      />
      {preview ? (
        value.trim() ? (
          <div
            className="rich-text markdown-preview"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it without raw HTML (markdown.ts).
            dangerouslySetInnerHTML={{ __html: renderMarkdown(value) }}
          />
        ) : (
          <p className="muted markdown-preview">Nothing to preview.</p>
        )
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="muted small">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
