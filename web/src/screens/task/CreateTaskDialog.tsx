// "Create a task": a modal dialog with the name focused, then team, status, assignee and description,
// each a native control (chosen by keyboard as the browser makes them: arrows, typing a name), and a
// template to make the task from instead. Enter in the name or Ctrl/⌘ Enter anywhere creates; the new
// task's page opens.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { myTeamsQuery, problemOf, type Team } from '../../api/index.ts';
import { createTask, createTaskFromTemplate, taskTemplatesQuery } from '../../api/tasks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Modal } from '../palette/Modal.tsx';

const appRoute = getRouteApi('/app');

interface DialogProps {
  open: boolean;
  /** The team asked for (publicId or id), the page's when the request came from a team's page. */
  teamKey: string | undefined;
  onClose: () => void;
}

interface Draft {
  name: string;
  teamId: string;
  statusId: string;
  assigneeId: string;
  description: string;
  templateId: string;
}

const EMPTY: Draft = { name: '', teamId: '', statusId: '', assigneeId: '', description: '', templateId: '' };

export function CreateTaskDialog({ open, teamKey, onClose }: DialogProps) {
  const headingId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={headingId} className="create-task">
      <div className="shortcuts-head">
        <h2 id={headingId}>Create a task</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          <X size={18} aria-hidden="true" />
        </button>
      </div>
      <CreateTaskForm teamKey={teamKey} onClose={onClose} />
    </Modal>
  );
}

function CreateTaskForm({ teamKey, onClose }: Omit<DialogProps, 'open'>) {
  const { me } = appRoute.useRouteContext();
  const teams = useQuery(myTeamsQuery(me.id));
  const templates = useQuery(taskTemplatesQuery);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const key = teamKey?.toUpperCase();
  const presetTeam = teams.data?.find((t) => t.publicId === key || t.id.toUpperCase() === key);
  const teamId = draft.teamId || presetTeam?.id || teams.data?.[0]?.id || '';
  // The list holds each team's statuses and members: choosing another team shows its own at once, so a
  // keyboard user tabbing on never meets a status field disabled while it loads (and skipped).
  const team = teams.data?.find((t) => t.id === teamId);
  const template = templates.data?.find((t) => t.id === draft.templateId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = useId();

  const create = useMutation({
    mutationFn: () =>
      template
        ? createTaskFromTemplate(template.id, draft.name.trim() || undefined)
        : createTask({
            teamId,
            name: draft.name.trim(),
            statusId: draft.statusId || undefined,
            assignedToId: draft.assigneeId || undefined,
            description: draft.description.trim() || undefined,
          }),
    onSuccess: async (task) => {
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      onClose();
      await navigate({ to: '/tasks/$taskKey', params: { taskKey: String(task.publicId) } });
    },
  });

  function submit(event: FormEvent | KeyboardEvent) {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  }
  const set = (changes: Partial<Draft>) => setDraft({ ...draft, ...changes });
  const fieldError = problemOf(create.error).fields;
  return (
    <form
      className="form create-task-form"
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          data-autofocus
          value={draft.name}
          maxLength={512}
          required={!template}
          placeholder={template ? template.name : 'What needs doing'}
          aria-invalid={fieldError.name ? true : undefined}
          onChange={(event) => set({ name: event.target.value })}
        />
      </div>
      {template ? (
        <p className="muted small">
          The task is made in the template’s area, with its status, assignee and description.
        </p>
      ) : (
        <TeamChoices
          id={id}
          teams={teams.data ?? []}
          teamId={teamId}
          team={team}
          draft={draft}
          onChange={set}
        />
      )}
      {template ? null : (
        <div className="field">
          <label htmlFor={`${id}-description`}>Description</label>
          <textarea
            id={`${id}-description`}
            value={draft.description}
            rows={4}
            placeholder="Markdown"
            onChange={(event) => set({ description: event.target.value })}
          />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-template`}>From a template</label>
        <select
          id={`${id}-template`}
          value={draft.templateId}
          onChange={(event) => set({ templateId: event.target.value })}
        >
          <option value="">No template</option>
          {templates.data?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {teams.isError ? <ErrorNotice error={teams.error} /> : null}
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      <div className="editor-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create task'}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <span className="muted small">Ctrl/⌘ Enter creates</span>
      </div>
    </form>
  );
}

interface ChoicesProps {
  id: string;
  teams: Team[];
  teamId: string;
  team: Team | undefined;
  draft: Draft;
  onChange: (changes: Partial<Draft>) => void;
}

/** Team, then the chosen team's statuses and members (another team starts them over). */
function TeamChoices({ id, teams, teamId, team, draft, onChange }: ChoicesProps) {
  const statuses = team?.taskStatuses ?? [];
  // The API's default when none is chosen: the team's first unstarted status.
  const defaultStatus = statuses.find((s) => s.stage === 'unstarted') ?? statuses[0];
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-team`}>Team</label>
        <select
          id={`${id}-team`}
          value={teamId}
          onChange={(event) => onChange({ teamId: event.target.value, statusId: '', assigneeId: '' })}
        >
          {teams.length === 0 ? <option value="">You are in no team</option> : null}
          {teams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={draft.statusId || defaultStatus?.id || ''}
          disabled={!team}
          onChange={(event) => onChange({ statusId: event.target.value })}
        >
          {statuses.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-assignee`}>Assignee</label>
        <select
          id={`${id}-assignee`}
          value={draft.assigneeId}
          disabled={!team}
          onChange={(event) => onChange({ assigneeId: event.target.value })}
        >
          <option value="">No one</option>
          {team?.members?.map((member) => (
            <option key={member.id} value={member.id}>
              {member.username}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
