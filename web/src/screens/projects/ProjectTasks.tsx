// A project's tasks, most recently changed first, each a link to its page (/tasks/<number>).
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type MouseEvent, useId } from 'react';
import type { TeamLabel } from '../../api/index.ts';
import { PROJECT_TASKS_LIMIT, type Project, projectTasksQuery } from '../../api/projects.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { TaskRow } from '../../components/TaskRow.tsx';

// A project's tasks may come from several teams: their labels are not shown here (the task's page has them).
const NO_LABELS = new Map<string, TeamLabel>();

export function ProjectTasks({ project }: { project: Project }) {
  const tasks = useQuery(projectTasksQuery(project.id));
  const navigate = useNavigate();
  const headingId = useId();
  // Followed inside the app; a modified click (new tab) is the browser's.
  const open = (event: MouseEvent, href: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ href });
  };
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
          {tasks.data.map((task) => {
            const href = `/tasks/${task.publicId}`;
            return (
              <li key={task.id}>
                <a href={href} className="row-link" onClick={(event) => open(event, href)}>
                  <TaskRow
                    task={task}
                    code={task.team?.publicId ?? task.area?.publicId}
                    labels={NO_LABELS}
                    now={now}
                  />
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}
      {tasks.data && tasks.data.length >= PROJECT_TASKS_LIMIT ? (
        <p className="muted small">The {PROJECT_TASKS_LIMIT} most recently changed are shown.</p>
      ) : null}
    </section>
  );
}
