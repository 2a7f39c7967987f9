// A team's tasks: filters (status, assignee, name) in the URL, shown as removable chips, and the list
// virtualized (only the rows in view are in the page), loading the next page of 100 as it scrolls.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { X } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Team, type TeamLabel, teamQuery, teamTasksQuery } from '../api/index.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { TaskRow } from '../components/TaskRow.tsx';
import { useTitle } from '../components/useTitle.ts';
import { MAX_TEXT, type TaskListSearch, withoutFilter } from '../lib/filters.ts';
import { useListNavigation } from '../lib/keyboard.ts';

const route = getRouteApi('/app/teams/$teamKey/tasks');
const ROW_HEIGHT = 36;
const TEXT_DELAY_MS = 250;

export function TeamTasks() {
  const { teamKey } = route.useParams();
  const team = useQuery(teamQuery(teamKey));
  useTitle(team.data ? `${team.data.name} · Tasks` : 'Tasks');
  return (
    <div className="page page-fill">
      <header className="page-header">
        <h1>{team.data ? `${team.data.name} tasks` : 'Tasks'}</h1>
      </header>
      {team.isPending ? <SkeletonRows label="Loading the team" /> : null}
      {team.isError ? <ErrorNotice error={team.error} /> : null}
      {team.isSuccess ? <TeamTaskList team={team.data} /> : null}
    </div>
  );
}

function TeamTaskList({ team }: { team: Team }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = useCallback(
    (next: TaskListSearch) => void navigate({ search: next, replace: true }),
    [navigate],
  );
  return (
    <>
      <Filters team={team} search={search} onChange={setSearch} />
      <Chips team={team} search={search} onChange={setSearch} />
      <VirtualTaskList team={team} search={search} />
    </>
  );
}

interface FilterProps {
  team: Team;
  search: TaskListSearch;
  onChange: (next: TaskListSearch) => void;
}

function Filters({ team, search, onChange }: FilterProps) {
  const [text, setText] = useState(search.q ?? '');
  // The URL changed under the field (a chip removed, back and forward): show what it says.
  useEffect(() => setText(search.q ?? ''), [search.q]);
  // Typing updates the URL once the person pauses, not on every key.
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === (search.q ?? '')) return;
    const timer = setTimeout(
      () => onChange(trimmed ? { ...search, q: trimmed } : withoutFilter(search, 'q')),
      TEXT_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text, search, onChange]);

  const id = useId();
  return (
    <search className="filters" aria-label="Filter tasks">
      <div className="filter">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          type="search"
          value={text}
          maxLength={MAX_TEXT}
          placeholder="Words the name starts with"
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <div className="filter">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={search.status ?? ''}
          onChange={(event) =>
            onChange(
              event.target.value
                ? { ...search, status: event.target.value }
                : withoutFilter(search, 'status'),
            )
          }
        >
          <option value="">Any status</option>
          {team.taskStatuses?.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          ))}
        </select>
      </div>
      <div className="filter">
        <label htmlFor={`${id}-assignee`}>Assignee</label>
        <select
          id={`${id}-assignee`}
          value={search.assignee ?? ''}
          onChange={(event) =>
            onChange(
              event.target.value
                ? { ...search, assignee: event.target.value }
                : withoutFilter(search, 'assignee'),
            )
          }
        >
          <option value="">Anyone</option>
          {team.members?.map((member) => (
            <option key={member.id} value={member.id}>
              {member.username}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
}

/** The filters in force, each with a button that removes it. */
function Chips({ team, search, onChange }: FilterProps) {
  const chips: { key: keyof TaskListSearch; text: string }[] = [];
  if (search.status) {
    const name = team.taskStatuses?.find((s) => s.id === search.status)?.name ?? 'unknown status';
    chips.push({ key: 'status', text: `Status: ${name}` });
  }
  if (search.assignee) {
    const name = team.members?.find((m) => m.id === search.assignee)?.username ?? 'someone else';
    chips.push({ key: 'assignee', text: `Assignee: ${name}` });
  }
  if (search.q) chips.push({ key: 'q', text: `Name: ${search.q}` });
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Filters in force">
      {chips.map((chip) => (
        <li key={chip.key} className="chip">
          {chip.text}
          <button
            type="button"
            className="chip-remove"
            aria-label={`Remove the filter ${chip.text}`}
            onClick={() => onChange(withoutFilter(search, chip.key))}
          >
            <X size={14} aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

function VirtualTaskList({ team, search }: { team: Team; search: TaskListSearch }) {
  const query = useInfiniteQuery(
    teamTasksQuery(team.id, { statusId: search.status, assigneeId: search.assignee, text: search.q }),
  );
  const tasks = useMemo(() => query.data?.pages.flatMap((page) => page.data) ?? [], [query.data]);
  const first = query.data?.pages[0];
  // The first page's total sizes the scroll bar; rows not loaded yet are placeholders until they are.
  const count = query.hasNextPage ? Math.max(tasks.length + 1, first?.total ?? 0) : tasks.length;
  const labels = useMemo(
    () => new Map<string, TeamLabel>((team.taskLabels ?? []).map((label) => [label.id, label])),
    [team.taskLabels],
  );
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const navigate = useNavigate();
  const { rowProps } = useListNavigation({
    count: tasks.length,
    onOpen: (index) => void navigate({ href: `/tasks/${tasks[index]?.publicId}` }),
    scrollToIndex: (index) => virtualizer.scrollToIndex(index),
  });

  useEffect(() => {
    if (lastIndex >= tasks.length - 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, tasks.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending) return <SkeletonRows label="Loading tasks" />;
  if (query.isError) return <ErrorNotice error={query.error} />;
  if (tasks.length === 0) {
    return (
      <div className="empty">
        <p>
          {Object.keys(search).length > 0 ? 'No task matches these filters.' : 'This team has no tasks yet.'}
        </p>
        <p className="muted">The team’s tasks are listed here, most recently changed first.</p>
      </div>
    );
  }
  const now = new Date();
  const totalText =
    first?.totalRelation === 'gte' ? `${first.total}+ tasks` : `${first?.total ?? tasks.length} tasks`;
  return (
    <>
      <p className="muted small list-count" aria-live="polite">
        {totalText}
      </p>
      {/* A scrolling region must be reachable by keyboard (WCAG 2.1.1) while its rows hold nothing
          focusable; it goes once rows are (J/K and Enter, a later step). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: see above. */}
      <section ref={scrollRef} className="list-scroll" tabIndex={0} aria-label={`${team.name} tasks`}>
        <ul className="rows virtual" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const task = tasks[item.index];
            return (
              <li
                key={item.key}
                className="virtual-row"
                style={{ transform: `translateY(${item.start}px)` }}
                aria-setsize={count}
                aria-posinset={item.index + 1}
                {...(task ? rowProps(item.index) : {})}
              >
                {task ? (
                  <TaskRow task={task} code={team.publicId} labels={labels} now={now} />
                ) : (
                  <div className="task-row" aria-busy="true">
                    <span className="skeleton skeleton-text" />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}
