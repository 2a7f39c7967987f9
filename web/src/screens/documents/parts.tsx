// Pieces the documents' screens share: a document's text as the API rendered it, and a day as people read it.
import type { Document } from '../../api/documents.ts';

/** A day as a person reads it: "26 Nov 2026". */
export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The document's text: the API's rendered and sanitized HTML (docs/api.md, "Descriptions"). */
export function DocumentBody({ document }: { document: Document }) {
  if (!document.description.html) return <p className="muted">This document is empty.</p>;
  return (
    <div
      className="rich-text doc-body"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the API renders and sanitizes it.
      dangerouslySetInnerHTML={{ __html: document.description.html }}
    />
  );
}
