// A team's projects, newest first: each with its status, owner and due date; filtered by status and
// with the archived ones shown on request, both in the URL. "New project" makes one, blank or from a
// project template (NewProject.tsx).
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { FolderPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { type Team, teamQuery } from '../../api/index.ts';
import {
  type Project,
  projectStatusesQuery,
  TEAM_PROJECTS_LIMIT,
  teamProjectsQuery,
} from '../../api/projects.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { formatDue } from '../../lib/due.ts';
import { useListNavigation } from '../../lib/keyboard.ts';
import { NewProject } from './NewProject.tsx';
import { StatusBadge } from './StatusBadge.tsx';

const route = getRouteApi('/app/teams/$teamKey/projects');

export function TeamProjects() {
  const { teamKey } = route.useParams();
  const team = useQuery(teamQuery(teamKey));
  const [creating, setCreating] = useState(false);
  useTitle(team.data ? `${team.data.name} · Projects` : 'Projects');
  return (
    <div className="page">
      <header className="page-header wrap-header">
        <h1>{team.data ? `${team.data.name} projects` : 'Projects'}</h1>
        {team.isSuccess ? (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            <FolderPlus size={16} aria-hidden="true" /> New project
          </button>
        ) : null}
      </header>
      {team.isPending ? <SkeletonRows label="Loading the team" /> : null}
      {team.isError ? <ErrorNotice error={team.error} /> : null}
      {team.isSuccess ? (
        <>
          <Filters />
          <ProjectList team={team.data} />
          <NewProject team={team.data} open={creating} onClose={() => setCreating(false)} />
        </>
      ) : null}
    </div>
  );
}

function Filters() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const statuses = useQuery(projectStatusesQuery);
  const id = useId();
  return (
    <search className="filters" aria-label="Filter projects">
      <div className="filter">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={search.status ?? ''}
          onChange={(event) =>
            void navigate({
              search: (prev) => ({ ...prev, status: event.target.value || undefined }),
              replace: true,
            })
          }
        >
          <option value="">Any status</option>
          {statuses.data?.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          ))}
        </select>
      </div>
      <label className="filter-check">
        <input
          type="checkbox"
          checked={search.archived === true}
          onChange={(event) =>
            void navigate({
              search: (prev) => ({ ...prev, archived: event.target.checked ? true : undefined }),
              replace: true,
            })
          }
        />
        Show archived
      </label>
    </search>
  );
}

function ProjectList({ team }: { team: Team }) {
  const search = route.useSearch();
  const projects = useQuery(
    teamProjectsQuery(team.id, { statusId: search.status, archived: search.archived }),
  );
  const navigate = useNavigate();
  const { rowProps } = useListNavigation({
    count: projects.data?.length ?? 0,
    onOpen: (index) => {
      const project = projects.data?.[index];
      if (project) void navigate({ to: '/projects/$projectKey', params: { projectKey: project.publicId } });
    },
  });
  if (projects.isPending) return <SkeletonRows label="Loading projects" />;
  if (projects.isError) return <ErrorNotice error={projects.error} />;
  if (projects.data.length === 0) {
    return (
      <div className="empty">
        <p>
          {search.status
            ? 'No project of this team has this status.'
            : search.archived
              ? 'This team has no projects.'
              : 'This team has no open projects.'}
        </p>
        <p className="muted">
          A project gathers tasks toward one outcome and keeps its status updates. “New project” starts one,
          blank or from a template.
        </p>
      </div>
    );
  }
  const count = projects.data.length;
  return (
    <>
      <p className="muted small list-count" aria-live="polite">
        {count === 1 ? '1 project' : `${count} projects`}
        {count >= TEAM_PROJECTS_LIMIT ? ` (the first ${TEAM_PROJECTS_LIMIT})` : ''}
      </p>
      <ul className="rows project-rows" aria-label={`${team.name} projects`}>
        {projects.data.map((project, index) => (
          <li key={project.id} className="project-row" {...rowProps(index)}>
            <ProjectRow project={project} />
          </li>
        ))}
      </ul>
    </>
  );
}

function ProjectRow({ project }: { project: Project }) {
  return (
    <>
      <StatusBadge status={project.status} />
      <Link to="/projects/$projectKey" params={{ projectKey: project.publicId }} className="project-link">
        {project.name}
      </Link>
      {project.archivedAt ? <span className="badge">Archived</span> : null}
      <span className="muted small project-meta">
        {project.owner ? project.owner.name : 'No owner'}
        {project.dueDate ? ` · due ${formatDue(project.dueDate, new Date())}` : ''}
      </span>
    </>
  );
}
