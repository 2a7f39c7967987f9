// A team's documents: search as the person types (the words in the URL once they pause), deleted ones
// listed too when asked (marked, each with Restore), a new document by its name, 100 at a time.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { FilePlus } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { createDocument, type Document, restoreDocument, teamDocumentsQuery } from '../../api/documents.ts';
import { problemOf, type Team, teamQuery } from '../../api/index.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { useListNavigation } from '../../lib/keyboard.ts';
import { formatDay } from './parts.tsx';
import type { DocumentListSearch } from './search.ts';

const route = getRouteApi('/app/teams/$teamKey/documents');
const TYPING_PAUSE_MS = 250;

export function TeamDocuments() {
  const { teamKey } = route.useParams();
  const team = useQuery(teamQuery(teamKey));
  useTitle(team.data ? `${team.data.name} · Documents` : 'Documents');
  const [creating, setCreating] = useState(false);
  return (
    <div className="page">
      <header className="page-header wrap-header">
        <h1>{team.data ? `${team.data.name} documents` : 'Documents'}</h1>
        {team.isSuccess && !creating ? (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            <FilePlus size={16} aria-hidden="true" /> New document
          </button>
        ) : null}
      </header>
      {team.isPending ? <SkeletonRows label="Loading the team" /> : null}
      {team.isError ? <ErrorNotice error={team.error} /> : null}
      {team.isSuccess ? (
        <>
          {creating ? <NewDocument team={team.data} onCancel={() => setCreating(false)} /> : null}
          <DocumentList team={team.data} />
        </>
      ) : null}
    </div>
  );
}

function NewDocument({ team, onCancel }: { team: Team; onCancel: () => void }) {
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: createDocument,
    onSuccess: async (document) => {
      await queryClient.invalidateQueries({ queryKey: ['documents'] });
      await navigate({ to: '/documents/$docKey', params: { docKey: document.publicId } });
    },
  });
  const id = useId();
  const error = create.error ? problemOf(create.error) : undefined;
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ teamId: team.id, name });
  }
  return (
    <form className="form inline-form new-document" onSubmit={onSubmit} aria-label="New document">
      <div className="field">
        <label htmlFor={id}>Name of the new document</label>
        <input
          id={id}
          value={name}
          required
          // biome-ignore lint/a11y/noAutofocus: the person asked for this form to type a name.
          autoFocus
          aria-invalid={error?.fields.name ? true : undefined}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {create.error ? <ErrorNotice error={create.error} /> : null}
    </form>
  );
}

function SearchBar({ search }: { search: DocumentListSearch }) {
  const navigate = route.useNavigate();
  const [text, setText] = useState(search.q ?? '');
  // The URL changed under the field (back and forward): show what it says.
  useEffect(() => setText(search.q ?? ''), [search.q]);
  // Typing updates the URL, and so the search, once the person pauses.
  useEffect(() => {
    const q = text.trim();
    if (q === (search.q ?? '')) return;
    const timer = setTimeout(
      () => void navigate({ search: (prev) => ({ ...prev, q: q || undefined }), replace: true }),
      TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, search.q, navigate]);
  const id = useId();
  return (
    <search className="filters" aria-label="Find documents">
      <div className="filter">
        <label htmlFor={`${id}-q`}>Search</label>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          maxLength={200}
          placeholder="Words of the name or the text"
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <label className="filter-check">
        <input
          type="checkbox"
          checked={search.deleted === true}
          onChange={(event) =>
            void navigate({
              search: (prev) => ({ ...prev, deleted: event.target.checked ? true : undefined }),
              replace: true,
            })
          }
        />
        Show deleted
      </label>
    </search>
  );
}

function DocumentList({ team }: { team: Team }) {
  const search = route.useSearch();
  const query = useInfiniteQuery(teamDocumentsQuery(team.id, { text: search.q, deleted: search.deleted }));
  const documents = query.data?.pages.flatMap((page) => page.data) ?? [];
  const first = query.data?.pages[0];
  const navigate = useNavigate();
  const { rowProps } = useListNavigation({
    count: documents.length,
    onOpen: (index) => {
      const document = documents[index];
      if (document) void navigate({ to: '/documents/$docKey', params: { docKey: document.publicId } });
    },
  });
  let body: ReactNode;
  if (query.isPending) body = <SkeletonRows label="Loading documents" />;
  else if (query.isError) body = <ErrorNotice error={query.error} />;
  else if (documents.length === 0) {
    body = (
      <div className="empty">
        <p>{search.q ? 'No document has these words.' : 'This team has no documents yet.'}</p>
        <p className="muted">
          The team’s documents: notes, specs and plans, written in Markdown. “New document” starts one.
        </p>
      </div>
    );
  } else {
    const total =
      first?.totalRelation === 'gte' ? `${first.total}+` : String(first?.total ?? documents.length);
    body = (
      <>
        <p className="muted small list-count" aria-live="polite">
          {total} {total === '1' ? 'document' : 'documents'}
        </p>
        <ul className="rows doc-rows" aria-label={`${team.name} documents`}>
          {documents.map((document, index) => (
            <li
              key={document.id}
              className="doc-row"
              data-deleted={document.deletedAt ? 'true' : undefined}
              {...rowProps(index)}
            >
              <DocumentRow document={document} />
            </li>
          ))}
        </ul>
        {query.hasNextPage ? (
          <button
            type="button"
            className="button more-button"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </button>
        ) : null}
      </>
    );
  }
  return (
    <>
      <SearchBar search={search} />
      {body}
    </>
  );
}

function DocumentRow({ document }: { document: Document }) {
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: () => restoreDocument(document.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
  const edited = document.lastEditedAt ?? document.updatedAt;
  return (
    <>
      <Link to="/documents/$docKey" params={{ docKey: document.publicId }} className="doc-link">
        {document.name}
      </Link>
      {document.deletedAt ? (
        <>
          <span className="badge badge-failed">Deleted</span>
          <button
            type="button"
            className="button"
            disabled={restore.isPending}
            onClick={() => restore.mutate()}
            aria-label={`Restore ${document.name}`}
          >
            Restore
          </button>
        </>
      ) : null}
      <span className="muted small doc-date">Edited {formatDay(edited)}</span>
      {restore.error ? <ErrorNotice error={restore.error} /> : null}
    </>
  );
}
