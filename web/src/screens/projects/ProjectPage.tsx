// A project's page: its status, teams (or area), owner and dates, its description, archive and
// unarchive; its tasks (ProjectTasks.tsx) and its status updates as a timeline with the form that posts
// one (StatusUpdates.tsx).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Archive, ArchiveRestore } from 'lucide-react';
import { type Project, projectQuery, setProjectArchived } from '../../api/projects.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { formatDue } from '../../lib/due.ts';
import { ProjectTasks } from './ProjectTasks.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { StatusUpdates } from './StatusUpdates.tsx';

const route = getRouteApi('/app/projects/$projectKey');

export function ProjectPage() {
  const { projectKey } = route.useParams();
  const query = useQuery(projectQuery(projectKey));
  useTitle(query.data ? query.data.name : 'Project');
  if (query.isPending) {
    return (
      <div className="page">
        <SkeletonRows label="Loading the project" count={6} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="page">
        <header className="page-header wrap-header">
          <h1>Project</h1>
        </header>
        <ErrorNotice error={query.error} />
      </div>
    );
  }
  const project = query.data;
  return (
    <article className="page project-page" aria-labelledby="project-title">
      <header className="page-header wrap-header">
        <h1 id="project-title">{project.name}</h1>
        <ArchiveButton projectKey={projectKey} project={project} />
      </header>
      <ProjectFacts project={project} />
      {project.archivedAt ? (
        <p className="notice" role="status">
          This project is archived: it is left out of its teams’ lists unless they show archived ones.
        </p>
      ) : null}
      {project.description.html ? (
        <div
          className="rich-text project-description"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the API renders and sanitizes it (docs/api.md, "Descriptions").
          dangerouslySetInnerHTML={{ __html: project.description.html }}
        />
      ) : null}
      <div className="project-sections">
        <ProjectTasks project={project} />
        <StatusUpdates projectKey={projectKey} project={project} />
      </div>
    </article>
  );
}

function ProjectFacts({ project }: { project: Project }) {
  const now = new Date();
  return (
    <dl className="facts project-facts">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={project.status} />
        {project.archivedAt ? <span className="badge">Archived</span> : null}
      </dd>
      {project.area ? (
        <>
          <dt>Area</dt>
          <dd>{project.area.name}</dd>
        </>
      ) : (
        <>
          <dt>{project.teams && project.teams.length > 1 ? 'Teams' : 'Team'}</dt>
          <dd className="inline-list">
            {project.teams?.map((team) => (
              <Link key={team.id} to="/teams/$teamKey/projects" params={{ teamKey: team.publicId }}>
                {team.name}
              </Link>
            ))}
          </dd>
        </>
      )}
      <dt>Owner</dt>
      <dd>{project.owner?.name ?? 'No one'}</dd>
      {project.startDate || project.dueDate ? (
        <>
          <dt>Dates</dt>
          <dd>
            {project.startDate ? `starts ${formatDue(project.startDate, now)}` : ''}
            {project.startDate && project.dueDate ? ', ' : ''}
            {project.dueDate ? `due ${formatDue(project.dueDate, now)}` : ''}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** Archive or unarchive at once (either undoes the other); the page and lists follow. */
function ArchiveButton({ projectKey, project }: { projectKey: string; project: Project }) {
  const queryClient = useQueryClient();
  const archived = project.archivedAt !== null;
  const change = useMutation({
    mutationFn: () => setProjectArchived(project.id, !archived),
    onSuccess: async (next) => {
      queryClient.setQueryData(['project', projectKey], next);
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  return (
    <div className="row-actions">
      <button type="button" className="button" disabled={change.isPending} onClick={() => change.mutate()}>
        {archived ? (
          <>
            <ArchiveRestore size={16} aria-hidden="true" /> Unarchive
          </>
        ) : (
          <>
            <Archive size={16} aria-hidden="true" /> Archive
          </>
        )}
      </button>
      {change.error ? <ErrorNotice error={change.error} /> : null}
    </div>
  );
}
