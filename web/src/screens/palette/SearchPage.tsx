// The search page (/search?q=…): the palette's searches with more results per kind, in the URL so a
// search can be bookmarked and shared. The palette (Ctrl/⌘ K) is the quick way; this is the long list.
import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type MouseEvent, type ReactNode, useEffect, useId, useState } from 'react';
import {
  documentSearchQuery,
  projectSearchQuery,
  SEARCH_PAGE_LIMIT,
  taskSearchQuery,
  teamSearchQuery,
} from '../../api/search.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { searchText } from '../../lib/search-words.ts';
import { documentPath, projectPath, taskCode, taskPath, teamTasksPath } from './paths.ts';

const route = getRouteApi('/app/search');
const TYPING_PAUSE_MS = 250;

/** A link to a page of the app, followed without reloading it (a modified click opens a new tab). */
function AppLink({ href, children }: { href: string; children: ReactNode }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ href });
  };
  return (
    <a href={href} onClick={onClick} className="search-link">
      {children}
    </a>
  );
}

interface Hit {
  key: string;
  href: string;
  code?: string;
  name: string;
  meta?: string;
}

function Section<T>({
  title,
  query,
  hits,
}: {
  title: string;
  query: UseQueryResult<T[]>;
  hits: (data: T[]) => Hit[];
}) {
  const headingId = useId();
  const list = query.data ? hits(query.data) : [];
  return (
    <section aria-labelledby={headingId} className="group">
      <h2 id={headingId} className="group-heading">
        {title}{' '}
        {query.data ? (
          <span className="count">{list.length === SEARCH_PAGE_LIMIT ? `${list.length}+` : list.length}</span>
        ) : null}
      </h2>
      {query.isPending ? <SkeletonRows count={3} label={`Searching ${title.toLowerCase()}`} /> : null}
      {query.isError ? <ErrorNotice error={query.error} /> : null}
      {query.data && list.length === 0 ? (
        <p className="muted small search-none">No {title.toLowerCase()} match.</p>
      ) : null}
      <ul className="rows">
        {list.map((hit) => (
          <li key={hit.key} className="search-hit">
            <AppLink href={hit.href}>
              {hit.code ? <span className="palette-code">{hit.code}</span> : null}
              <span className="palette-name">{hit.name}</span>
              {hit.meta ? <span className="palette-meta">{hit.meta}</span> : null}
            </AppLink>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Results({ text }: { text: string }) {
  const options = { placeholderData: keepPreviousData } as const;
  const tasks = useQuery({ ...taskSearchQuery(text, SEARCH_PAGE_LIMIT), ...options });
  const projects = useQuery({ ...projectSearchQuery(text, SEARCH_PAGE_LIMIT), ...options });
  const documents = useQuery({ ...documentSearchQuery(text, SEARCH_PAGE_LIMIT), ...options });
  const teams = useQuery({ ...teamSearchQuery(text, SEARCH_PAGE_LIMIT), ...options });
  return (
    <>
      <Section
        title="Tasks"
        query={tasks}
        hits={(data) =>
          data.map((task) => ({
            key: task.id,
            href: taskPath(task),
            code: taskCode(task),
            name: task.name,
            meta: task.team?.name ?? task.area?.name,
          }))
        }
      />
      <Section
        title="Projects"
        query={projects}
        hits={(data) =>
          data.map((project) => ({
            key: project.id,
            href: projectPath(project),
            name: project.name,
            meta: project.teams?.map((team) => team.publicId).join(', '),
          }))
        }
      />
      <Section
        title="Documents"
        query={documents}
        hits={(data) =>
          data.map((document) => ({
            key: document.id,
            href: documentPath(document),
            name: document.name,
            meta: document.team?.publicId,
          }))
        }
      />
      <Section
        title="Teams"
        query={teams}
        hits={(data) =>
          data.map((team) => ({
            key: team.id,
            href: teamTasksPath(team),
            code: team.publicId,
            name: team.name,
            meta: 'Tasks',
          }))
        }
      />
    </>
  );
}

export function SearchPage() {
  useTitle('Search');
  const { q = '' } = route.useSearch();
  const navigate = route.useNavigate();
  const [text, setText] = useState(q);
  // The URL changed under the field (back and forward): show what it says.
  useEffect(() => setText(q), [q]);
  // Typing updates the URL once the person pauses, not on every key.
  useEffect(() => {
    const typed = searchText(text);
    if (typed === q) return;
    const timer = setTimeout(
      () => void navigate({ search: typed ? { q: typed } : {}, replace: true }),
      TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, q, navigate]);
  const id = useId();
  return (
    <div className="page">
      <header className="page-header">
        <h1>Search</h1>
      </header>
      <search className="filters" aria-label="Search Cairn">
        <div className="filter search-field">
          <label htmlFor={id}>Words the names start with</label>
          <input
            id={id}
            type="search"
            value={text}
            maxLength={200}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
      </search>
      {q ? (
        <Results text={q} />
      ) : (
        <div className="empty">
          <p>Search tasks, projects, documents and teams by name.</p>
          <p className="muted">
            Each word finds names with a word that starts with it. <kbd>Ctrl</kbd>+<kbd>K</kbd> opens the same
            search anywhere, with commands.
          </p>
        </div>
      )}
    </div>
  );
}
