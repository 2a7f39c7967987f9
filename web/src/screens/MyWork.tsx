import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { MY_WORK_LIMIT, myTasksQuery, myTeamsQuery, type TeamLabel } from '../api/index.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { SkeletonRows } from '../components/Skeleton.tsx';
import { TaskRow } from '../components/TaskRow.tsx';
import { useTitle } from '../components/useTitle.ts';
import { DUE_GROUPS, groupByDue } from '../lib/due.ts';
import { useListNavigation } from '../lib/keyboard.ts';

const appRoute = getRouteApi('/app');

/** The tasks assigned to the person that are still open, grouped by due date. */
export function MyWork() {
  useTitle('My work');
  const { me } = appRoute.useRouteContext();
  const tasks = useQuery(myTasksQuery(me.id));
  const teams = useQuery(myTeamsQuery(me.id));
  const now = new Date();

  const labels = useMemo(() => {
    const byId = new Map<string, TeamLabel>();
    for (const team of teams.data ?? []) for (const label of team.taskLabels ?? []) byId.set(label.id, label);
    return byId;
  }, [teams.data]);

  const open = (tasks.data ?? []).filter(
    (task) => task.status?.stage !== 'completed' && task.status?.stage !== 'canceled',
  );
  const groups = groupByDue(open, now);
  // J/K move through the rows in the order shown, across groups; Enter opens the task.
  const shown = DUE_GROUPS.flatMap(({ key }) => groups.get(key) ?? []);
  const rowIndex = new Map(shown.map((task, index) => [task.id, index]));
  const navigate = useNavigate();
  const { rowProps } = useListNavigation({
    count: shown.length,
    onOpen: (index) => void navigate({ href: `/tasks/${shown[index]?.publicId}` }),
  });

  return (
    <div className="page">
      <header className="page-header">
        <h1>My work</h1>
      </header>
      {tasks.isPending ? <SkeletonRows label="Loading your tasks" /> : null}
      {tasks.isError ? <ErrorNotice error={tasks.error} /> : null}
      {tasks.isSuccess && open.length === 0 ? (
        <div className="empty">
          <p>Nothing is assigned to you.</p>
          <p className="muted">
            Tasks assigned to you in any team show here, by due date.{' '}
            {teams.data?.[0] ? (
              <Link to="/teams/$teamKey/tasks" params={{ teamKey: teams.data[0].publicId }}>
                Open {teams.data[0].name}’s tasks
              </Link>
            ) : null}
          </p>
        </div>
      ) : null}
      {tasks.isSuccess && tasks.data.length >= MY_WORK_LIMIT ? (
        <p className="muted small">
          Showing the {MY_WORK_LIMIT} most recently changed tasks assigned to you.
        </p>
      ) : null}
      {DUE_GROUPS.map(({ key, label }) => {
        const list = groups.get(key) ?? [];
        if (list.length === 0) return null;
        const headingId = `due-${key}`;
        return (
          <section key={key} aria-labelledby={headingId} className="group">
            <h2 id={headingId} className="group-heading">
              {label} <span className="count">{list.length}</span>
            </h2>
            <ul className="rows" aria-labelledby={headingId}>
              {list.map((task) => (
                <li key={task.id} {...rowProps(rowIndex.get(task.id) ?? -1)}>
                  <TaskRow
                    task={task}
                    code={task.team?.publicId ?? task.area?.publicId}
                    labels={labels}
                    now={now}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
