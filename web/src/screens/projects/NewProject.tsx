// "New project": a blank project of this team (name, status, description), or one made from a project
// template (its tasks too). A template's project lives in the template's area, as the API makes it
// (docs/templates.md), so it opens on its own page rather than joining this team's list.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { problemOf, type Team } from '../../api/index.ts';
import {
  createProject,
  createProjectFromTemplate,
  projectStatusesQuery,
  projectTemplatesQuery,
} from '../../api/projects.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { MarkdownEditor } from '../documents/MarkdownEditor.tsx';
import { Modal } from '../palette/Modal.tsx';

interface NewProjectProps {
  team: Team;
  open: boolean;
  onClose: () => void;
}

export function NewProject({ team, open, onClose }: NewProjectProps) {
  const headingId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={headingId} className="form-dialog">
      <h2 id={headingId}>New project in {team.name}</h2>
      <NewProjectForm team={team} onClose={onClose} />
    </Modal>
  );
}

interface Draft {
  templateId: string;
  name: string;
  statusId: string;
  description: string;
}

function NewProjectForm({ team, onClose }: { team: Team; onClose: () => void }) {
  const [draft, setDraft] = useState<Draft>({ templateId: '', name: '', statusId: '', description: '' });
  const statuses = useQuery(projectStatusesQuery);
  const templates = useQuery(projectTemplatesQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (d: Draft) =>
      d.templateId
        ? createProjectFromTemplate({ templateId: d.templateId, name: d.name.trim() || undefined })
        : createProject({
            name: d.name,
            teamId: team.id,
            statusId: d.statusId || undefined,
            description: d.description.trim() || undefined,
          }),
    onSuccess: async (project) => {
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
      onClose();
      await navigate({ to: '/projects/$projectKey', params: { projectKey: project.publicId } });
    },
  });
  const id = useId();
  const problem = create.error ? problemOf(create.error) : undefined;
  const template = templates.data?.find((t) => t.id === draft.templateId);
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  function onSubmit(event?: FormEvent) {
    event?.preventDefault();
    if (!create.isPending) create.mutate(draft);
  }
  return (
    <form className="form" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={`${id}-template`}>Start from</label>
        <select
          id={`${id}-template`}
          value={draft.templateId}
          onChange={(event) => set({ templateId: event.target.value })}
        >
          <option value="">A blank project</option>
          {templates.data?.map((t) => (
            <option key={t.id} value={t.id}>
              Template: {t.name} ({t.ownedByArea.name})
            </option>
          ))}
        </select>
        {templates.isError ? <ErrorNotice error={templates.error} /> : null}
        {template ? (
          <p className="muted small">
            Made with the template’s tasks and dates, in the {template.ownedByArea.name} area.
          </p>
        ) : null}
      </div>
      <Field
        label={template ? 'Name (leave empty for the template’s)' : 'Name'}
        name="name"
        value={draft.name}
        required={!template}
        placeholder={template?.name}
        data-autofocus
        error={problem?.fields.name}
        onChange={(event) => set({ name: event.target.value })}
      />
      {template ? null : (
        <>
          <div className="field">
            <label htmlFor={`${id}-status`}>Status</label>
            <select
              id={`${id}-status`}
              value={draft.statusId}
              onChange={(event) => set({ statusId: event.target.value })}
            >
              <option value="">{statuses.data?.[0]?.name ?? 'The first status'}</option>
              {statuses.data?.slice(1).map((status) => (
                <option key={status.id} value={status.id}>
                  {status.name}
                </option>
              ))}
            </select>
          </div>
          <MarkdownEditor
            label="Description"
            value={draft.description}
            onChange={(description) => set({ description })}
            onSubmit={onSubmit}
            rows={5}
          />
        </>
      )}
      {create.error && !problem?.fields.name ? <ErrorNotice error={create.error} /> : null}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create project'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
