// A project's tasks, most recently changed first: each row links to the task's page (/tasks/<number>),
// a click anywhere on it opens it, and J/K and Enter move along and open, as in a team's list.
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import type { TeamLabel } from '../../api/index.ts';
import { PROJECT_TASKS_LIMIT, type Project, projectTasksQuery } from '../../api/projects.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { TaskRow } from '../../components/TaskRow.tsx';
import { useListNavigation } from '../../lib/keyboard.ts';

// A project's tasks may come from several teams: their labels are not shown here (the task's page has them).
const NO_LABELS = new Map<string, TeamLabel>();

export function ProjectTasks({ project }: { project: Project }) {
  const tasks = useQuery(projectTasksQuery(project.id));
  const navigate = useNavigate();
  const headingId = useId();
  const { rowProps } = useListNavigation({
    count: tasks.data?.length ?? 0,
    onOpen: (index) => {
      const task = tasks.data?.[index];
      if (task) void navigate({ to: '/tasks/$taskKey', params: { taskKey: String(task.publicId) } });
    },
  });
  const now = new Date();
  return (
    <section className="project-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="group-heading">
        Tasks {tasks.data ? <span className="count">{tasks.data.length}</span> : null}
      </h2>
      {tasks.isPending ? <SkeletonRows label="Loading the tasks" count={4} /> : null}
      {tasks.isError ? <ErrorNotice error={tasks.error} /> : null}
      {tasks.data?.length === 0 ? <p className="muted empty-line">No task is in this project yet.</p> : null}
      {tasks.data && tasks.data.length > 0 ? (
        <ul className="rows" aria-labelledby={headingId}>
          {tasks.data.map((task, index) => (
            <li key={task.id} {...rowProps(index)}>
              <TaskRow
                task={task}
                code={task.team?.publicId ?? task.area?.publicId}
                labels={NO_LABELS}
                now={now}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {tasks.data && tasks.data.length >= PROJECT_TASKS_LIMIT ? (
        <p className="muted small">The {PROJECT_TASKS_LIMIT} most recently changed are shown.</p>
      ) : null}
    </section>
  );
}
