// Editing a document: its name and Markdown (Write / Preview), saved with the version it started from
// as If-Match. When someone saved in between (412), the newer version is read and shown beside the
// draft, which is kept: the person saves theirs over it (now against the newer version) or takes theirs.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type DocumentVersion, readLatestDocument, saveDocument } from '../../api/documents.ts';
import { problemOf } from '../../api/index.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { DocumentBody } from './parts.tsx';

interface EditorProps {
  docKey: string;
  /** The version the editing started from. */
  base: DocumentVersion;
  onDone: () => void;
}

export function DocumentEditor({ docKey, base: start, onDone }: EditorProps) {
  const queryClient = useQueryClient();
  const [base, setBase] = useState(start);
  const [name, setName] = useState(start.document.name);
  const [text, setText] = useState(start.document.description.markdown ?? '');
  const [conflict, setConflict] = useState<DocumentVersion | null>(null);

  const save = useMutation({
    mutationFn: (against: DocumentVersion) =>
      saveDocument({ id: against.document.id, name, markdown: text, etag: against.etag }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(['document', docKey], saved);
      onDone();
      await queryClient.invalidateQueries({ queryKey: ['documents'] });
    },
    onError: async (error) => {
      if (problemOf(error).code !== 'precondition_failed') return;
      try {
        const latest = await readLatestDocument(docKey);
        queryClient.setQueryData(['document', docKey], latest);
        setConflict(latest);
      } catch {
        // The newer version could not be read: the 412's own words stay shown, with the draft.
      }
    },
  });

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!save.isPending) save.mutate(base);
  }
  function keepMine() {
    if (!conflict) return;
    setBase(conflict);
    setConflict(null);
    save.mutate(conflict);
  }

  const problem = save.error ? problemOf(save.error) : undefined;
  return (
    <form className="form doc-editor" onSubmit={submit} aria-labelledby="doc-title">
      <header className="page-header wrap-header">
        <h1 id="doc-title">Editing “{base.document.name}”</h1>
      </header>
      {conflict ? (
        <Conflict newer={conflict} onKeepMine={keepMine} onTakeTheirs={onDone} />
      ) : problem ? (
        <ErrorNotice error={save.error} />
      ) : null}
      <Field
        label="Name"
        name="name"
        value={name}
        required
        error={problem?.fields.name}
        onChange={(event) => setName(event.target.value)}
      />
      <MarkdownEditor
        label="Text"
        value={text}
        onChange={setText}
        onSubmit={submit}
        rows={16}
        hint="Markdown: **bold**, _italic_, # headings, - lists, [links](https://…), ``` code. Ctrl/⌘ Enter saves."
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending || !!conflict}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface ConflictProps {
  newer: DocumentVersion;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}

/** Someone saved first: their version, and the two ways on. Focus comes here so it is read out. */
function Conflict({ newer, onKeepMine, onTakeTheirs }: ConflictProps) {
  const headingId = useId();
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const { document } = newer;
  return (
    <section className="conflict" aria-labelledby={headingId}>
      <h2 id={headingId} ref={ref} tabIndex={-1}>
        Someone saved this document while you were editing it
      </h2>
      <p>
        Your changes are kept below. Their version, saved{' '}
        {new Date(document.lastEditedAt ?? document.updatedAt).toLocaleString()}:
      </p>
      <div className="conflict-theirs">
        <p className="conflict-name">{document.name}</p>
        <DocumentBody document={document} />
      </div>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={onKeepMine}>
          Save mine over theirs
        </button>
        <button type="button" className="button" onClick={onTakeTheirs}>
          Discard mine, keep theirs
        </button>
      </div>
    </section>
  );
}
