// One document: read (the API's rendered, sanitized HTML), edit its name and Markdown with a preview,
// save with If-Match (a 412 shows the newer version beside the draft: keep mine or take theirs), delete
// with Undo, and Restore when it is deleted. The draft lives in this screen's state, so a live refresh
// of the document (someone else's change) never touches what the person is typing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Pencil, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  type Document,
  type DocumentVersion,
  deleteDocument,
  documentQuery,
  restoreDocument,
} from '../../api/documents.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { DocumentEditor } from './DocumentEditor.tsx';
import { DocumentBody, formatDay } from './parts.tsx';

const route = getRouteApi('/app/documents/$docKey');

export function DocumentPage() {
  const { docKey } = route.useParams();
  const query = useQuery(documentQuery(docKey));
  const [editing, setEditing] = useState<DocumentVersion | null>(null);
  // Deleted from this page just now: the notice then offers Undo (focused) rather than Restore.
  const [deletedHere, setDeletedHere] = useState(false);
  useTitle(query.data ? query.data.document.name : 'Document');
  if (query.isPending) {
    return (
      <div className="page">
        <SkeletonRows label="Loading the document" count={6} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="page">
        <header className="page-header wrap-header">
          <h1>Document</h1>
        </header>
        <ErrorNotice error={query.error} />
      </div>
    );
  }
  const { document } = query.data;
  return (
    <article className="page doc-page" aria-labelledby="doc-title">
      {editing ? (
        <DocumentEditor docKey={docKey} base={editing} onDone={() => setEditing(null)} />
      ) : (
        <>
          <header className="page-header wrap-header">
            <h1 id="doc-title">{document.name}</h1>
            <div className="row-actions">
              <button
                type="button"
                className="button"
                disabled={document.deletedAt !== null}
                onClick={() => setEditing(query.data)}
              >
                <Pencil size={16} aria-hidden="true" /> Edit
              </button>
              {document.deletedAt ? null : (
                <DeleteButton docKey={docKey} document={document} onDeleted={() => setDeletedHere(true)} />
              )}
            </div>
          </header>
          <DocumentFacts document={document} />
          {document.deletedAt ? (
            <DeletedNotice
              docKey={docKey}
              document={document}
              justDeleted={deletedHere}
              onRestored={() => setDeletedHere(false)}
            />
          ) : null}
          <DocumentBody document={document} />
        </>
      )}
    </article>
  );
}

function DocumentFacts({ document }: { document: Document }) {
  const edited = document.lastEditedAt ?? document.updatedAt;
  return (
    <p className="muted small doc-facts">
      {document.team ? (
        <Link to="/teams/$teamKey/documents" params={{ teamKey: document.team.publicId }}>
          {document.team.name} documents
        </Link>
      ) : null}
      <span>Edited {formatDay(edited)}</span>
      {document.visibility === 'private' ? <span className="badge">Private</span> : null}
    </p>
  );
}

/** Delete at once (it can be undone): the page then says so, with Undo focused. */
interface DeleteProps {
  docKey: string;
  document: Document;
  onDeleted: () => void;
}

function DeleteButton({ docKey, document, onDeleted }: DeleteProps) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteDocument(document.id),
    onSuccess: async () => {
      onDeleted();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['document', docKey] }),
        queryClient.invalidateQueries({ queryKey: ['documents'] }),
      ]);
    },
  });
  return (
    <>
      <button
        type="button"
        className="button button-danger"
        disabled={remove.isPending}
        onClick={() => remove.mutate()}
      >
        <Trash2 size={16} aria-hidden="true" /> {remove.isPending ? 'Deleting…' : 'Delete'}
      </button>
      {remove.error ? <ErrorNotice error={remove.error} /> : null}
    </>
  );
}

interface DeletedNoticeProps {
  docKey: string;
  document: Document;
  justDeleted: boolean;
  onRestored: () => void;
}

/** A deleted document says so, with Restore ("Undo" right after the person deleted it here). */
function DeletedNotice({ docKey, document, justDeleted, onRestored }: DeletedNoticeProps) {
  const queryClient = useQueryClient();
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (justDeleted) buttonRef.current?.focus();
  }, [justDeleted]);
  const restore = useMutation({
    mutationFn: () => restoreDocument(document.id),
    onSuccess: async () => {
      onRestored();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['document', docKey] }),
        queryClient.invalidateQueries({ queryKey: ['documents'] }),
      ]);
    },
  });
  return (
    <div className="notice doc-deleted" role="status">
      <div>
        <p>
          {justDeleted
            ? `“${document.name}” is deleted.`
            : `This document was deleted on ${formatDay(document.deletedAt ?? document.updatedAt)}.`}
        </p>
        <div className="notice-actions">
          <button
            ref={buttonRef}
            type="button"
            className="button"
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
          >
            {justDeleted ? 'Undo' : 'Restore'}
          </button>
        </div>
        {restore.error ? <ErrorNotice error={restore.error} /> : null}
      </div>
    </div>
  );
}
