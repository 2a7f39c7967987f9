// A team's tasks: filters in the URL (shared with the board, screens/board/TaskFilters.tsx), shown as
// removable chips, and the list virtualized (only the rows in view are in the page). With the API's
// filters alone it loads the next page of 100 as it scrolls; with priority, a due range or a sort the
// API lacks, it reads the team's whole (server-filtered) set, as the board does, and applies them here.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { BOARD_LIMIT, teamTaskSetQuery } from '../api/board.ts';
import { type Task, type Team, type TeamLabel, teamQuery, teamTasksQuery } from '../api/index.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { TaskRow } from '../components/TaskRow.tsx';
import { useTitle } from '../components/useTitle.ts';
import { localFilter, needsWholeSet, serverFilters, sortTasks, type TaskListSearch } from '../lib/filters.ts';
import { useListNavigation } from '../lib/keyboard.ts';
import { TaskFilters, ViewSwitch } from './board/TaskFilters.tsx';

const route = getRouteApi('/app/teams/$teamKey/tasks');
const ROW_HEIGHT = 36;

export function TeamTasks() {
  const { teamKey } = route.useParams();
  const search = route.useSearch();
  const team = useQuery(teamQuery(teamKey));
  useTitle(team.data ? `${team.data.name} · Tasks` : 'Tasks');
  return (
    <div className="page page-fill">
      <header className="page-header">
        <h1>{team.data ? `${team.data.name} tasks` : 'Tasks'}</h1>
        <ViewSwitch teamKey={teamKey} search={search} />
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
      <TaskFilters team={team} search={search} onChange={setSearch} />
      <VirtualTaskList team={team} search={search} />
    </>
  );
}

/** What the list shows: the API's pages, or the whole set filtered and sorted here. */
interface ListData {
  isPending: boolean;
  error: unknown;
  tasks: Task[];
  /** Rows, counting those not loaded yet (the scroll bar's size). */
  count: number;
  totalText: string;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** The whole set stopped at the board's limit. */
  partial: boolean;
}

function usePagedTasks(team: Team, search: TaskListSearch, enabled: boolean): ListData {
  const query = useInfiniteQuery({
    ...teamTasksQuery(team.id, serverFilters(search, true)),
    enabled,
  });
  const tasks = useMemo(() => query.data?.pages.flatMap((page) => page.data) ?? [], [query.data]);
  const first = query.data?.pages[0];
  return {
    isPending: query.isPending,
    error: query.error,
    tasks,
    // The first page's total sizes the scroll bar; rows not loaded yet are placeholders until they are.
    count: query.hasNextPage ? Math.max(tasks.length + 1, first?.total ?? 0) : tasks.length,
    totalText:
      first?.totalRelation === 'gte' ? `${first.total}+ tasks` : `${first?.total ?? tasks.length} tasks`,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
    partial: false,
  };
}

/** Priority, a due range or an order the API lacks: the whole set, filtered and sorted in the browser. */
function useWholeSet(team: Team, search: TaskListSearch, enabled: boolean): ListData {
  const query = useQuery({ ...teamTaskSetQuery(team.id, serverFilters(search, true)), enabled });
  const tasks = useMemo(
    () => sortTasks((query.data?.tasks ?? []).filter(localFilter(search)), search.sort),
    [query.data, search],
  );
  return {
    isPending: query.isPending,
    error: query.error,
    tasks,
    count: tasks.length,
    totalText: `${tasks.length} tasks`,
    hasNextPage: false,
    isFetchingNextPage: false,
    fetchNextPage: () => undefined,
    partial: query.data?.complete === false,
  };
}

function VirtualTaskList({ team, search }: { team: Team; search: TaskListSearch }) {
  const whole = needsWholeSet(search);
  const paged = usePagedTasks(team, search, !whole);
  const set = useWholeSet(team, search, whole);
  const query = whole ? set : paged;
  const { tasks, count } = query;
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

  if (query.error) return <ErrorNotice error={query.error} />;
  if (query.isPending) return <SkeletonRows label="Loading tasks" />;
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
  return (
    <>
      <p className="muted small list-count" aria-live="polite">
        {query.totalText}
        {query.partial ? ` (of the ${BOARD_LIMIT} most recently changed: the rest are not read)` : ''}
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
                className={task?.deletedAt ? 'virtual-row deleted' : 'virtual-row'}
                style={{ transform: `translateY(${item.start}px)` }}
                aria-setsize={count}
                aria-posinset={item.index + 1}
                {...(task ? rowProps(item.index) : {})}
              >
                {task?.deletedAt ? <span className="visually-hidden">Deleted: </span> : null}
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
