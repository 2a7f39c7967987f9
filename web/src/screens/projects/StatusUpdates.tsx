// A project's status updates: the form that posts one (a status, chosen from the workspace's, and a
// few words in Markdown; the API sets the project's status and writes the post together), and the
// timeline of those posted, newest first.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { problemOf } from '../../api/index.ts';
import {
  type Post,
  type Project,
  type ProjectStatus,
  postStatusUpdate,
  projectStatusesQuery,
  statusUpdatesQuery,
} from '../../api/projects.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { MarkdownEditor } from '../documents/MarkdownEditor.tsx';
import { renderMarkdown } from '../documents/markdown.ts';

export function StatusUpdates({ projectKey, project }: { projectKey: string; project: Project }) {
  const updates = useQuery(statusUpdatesQuery(project.id));
  const statuses = useQuery(projectStatusesQuery);
  const headingId = useId();
  return (
    <section className="project-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="group-heading">
        Status updates {updates.data ? <span className="count">{updates.data.length}</span> : null}
      </h2>
      <StatusUpdateForm projectKey={projectKey} project={project} statuses={statuses.data ?? []} />
      {updates.isPending ? <SkeletonRows label="Loading the status updates" count={3} /> : null}
      {updates.isError ? <ErrorNotice error={updates.error} /> : null}
      {updates.data?.length === 0 ? (
        <p className="muted empty-line">No status update yet: the first one tells the team how it goes.</p>
      ) : null}
      {updates.data && updates.data.length > 0 ? (
        <ol className="timeline" aria-label="Status updates, newest first">
          {updates.data.map((post) => (
            <TimelineEntry key={post.id} post={post} statuses={statuses.data ?? []} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function TimelineEntry({ post, statuses }: { post: Post; statuses: ProjectStatus[] }) {
  const status = statuses.find((s) => s.id === post.actionValue);
  const when = new Date(post.createdAt);
  return (
    <li className="timeline-entry">
      <div className="timeline-head">
        <span className="status-badge">
          {status ? (
            <span className="label-dot" style={{ background: status.color }} aria-hidden="true" />
          ) : null}
          {status?.name ?? 'A status no longer used'}
        </span>
        <span className="muted small">
          {post.owner?.name ?? 'Someone'} ·{' '}
          <time dateTime={post.createdAt}>
            {when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
          </time>
        </span>
      </div>
      <div
        className="rich-text timeline-body"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the API's sanitized Markdown, rendered without raw HTML (markdown.ts).
        dangerouslySetInnerHTML={{ __html: renderMarkdown(post.content) }}
      />
    </li>
  );
}

interface FormProps {
  projectKey: string;
  project: Project;
  statuses: ProjectStatus[];
}

function StatusUpdateForm({ projectKey, project, statuses }: FormProps) {
  const queryClient = useQueryClient();
  const [statusId, setStatusId] = useState(project.statusId);
  const [content, setContent] = useState('');
  // Bumped once an update is posted: the editor starts again on Write.
  const [posted, setPosted] = useState(0);
  const post = useMutation({
    mutationFn: () => postStatusUpdate({ projectId: project.id, statusId, content }),
    onSuccess: async (next) => {
      setContent('');
      setPosted((n) => n + 1);
      queryClient.setQueryData(['project', projectKey], next);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['posts', 'project', project.id] }),
        queryClient.invalidateQueries({ queryKey: ['projects'] }),
      ]);
    },
  });
  const id = useId();
  const problem = post.error ? problemOf(post.error) : undefined;
  function onSubmit(event?: FormEvent) {
    event?.preventDefault();
    if (!post.isPending) post.mutate();
  }
  return (
    <form className="form status-update-form" onSubmit={onSubmit} aria-label="Post a status update">
      <div className="field">
        <label htmlFor={`${id}-status`}>New status</label>
        <select id={`${id}-status`} value={statusId} onChange={(event) => setStatusId(event.target.value)}>
          {statuses.length === 0 && project.status ? (
            <option value={project.statusId}>{project.status.name}</option>
          ) : null}
          {statuses.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          ))}
        </select>
      </div>
      <MarkdownEditor
        key={posted}
        label="Update"
        value={content}
        onChange={setContent}
        onSubmit={onSubmit}
        rows={4}
        hint="How it goes, in Markdown. Ctrl/⌘ Enter posts."
      />
      {problem ? <ErrorNotice error={post.error} /> : null}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={post.isPending}>
          {post.isPending ? 'Posting…' : 'Post update'}
        </button>
      </div>
    </form>
  );
}
