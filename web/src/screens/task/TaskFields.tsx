// The task's fields, each saved as soon as it changes (native controls: labelled, and operable by
// keyboard as the browser makes them): status, assignee, labels, due date, priority, project, visibility.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { Task } from '../../api/index.ts';
import { type Group, type TaskChanges, teamProjectsQuery } from '../../api/tasks.ts';
import type { Save } from './useTaskSave.ts';
import { dateInputValue } from './values.ts';

interface FieldsProps {
  task: Task;
  group: Group | undefined;
  disabled: boolean;
  save: Save;
}

export function TaskFields({ task, group, disabled, save }: FieldsProps) {
  const id = useId();
  // Each change is made to the task as shown now: a change made meanwhile by someone else has
  // already arrived through the live stream, or the save answers 412 and shows it.
  const change = (changes: TaskChanges) => void save(task, changes);
  const off = disabled || !group;
  return (
    <div className="task-fields">
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={task.statusId}
          disabled={off}
          onChange={(event) => change({ statusId: event.target.value })}
        >
          {group?.taskStatuses?.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          )) ?? <option value={task.statusId}>{task.status?.name ?? 'Loading…'}</option>}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-assignee`}>Assignee</label>
        <select
          id={`${id}-assignee`}
          value={task.assignedToId ?? ''}
          disabled={off}
          onChange={(event) => change({ assignedToId: event.target.value || null })}
        >
          <option value="">No one</option>
          {group?.members?.map((member) => (
            <option key={member.id} value={member.id}>
              {member.username}
            </option>
          ))}
          {task.assignee && !group?.members?.some((m) => m.id === task.assignee?.id) ? (
            <option value={task.assignee.id}>{task.assignee.name}</option>
          ) : null}
        </select>
      </div>
      <Labels task={task} group={group} disabled={off} onChange={(labelIds) => change({ labelIds })} />
      <div className="field">
        <label htmlFor={`${id}-due`}>Due date</label>
        <input
          id={`${id}-due`}
          type="date"
          value={dateInputValue(task.dueDate)}
          disabled={disabled}
          onChange={(event) => {
            const day = event.target.value;
            // A date is that day everywhere: midnight UTC, as the API stores a date (lib/due.ts).
            if (day === '' || /^\d{4}-\d{2}-\d{2}$/.test(day))
              change({ dueDate: day ? `${day}T00:00:00.000Z` : null });
          }}
        />
      </div>
      <div className="field field-check">
        <input
          id={`${id}-priority`}
          type="checkbox"
          checked={task.priority}
          disabled={disabled}
          onChange={(event) => change({ priority: event.target.checked })}
        />
        <label htmlFor={`${id}-priority`}>High priority</label>
      </div>
      <Project task={task} disabled={disabled} onChange={(projectId) => change({ projectId })} />
      <div className="field">
        <label htmlFor={`${id}-visibility`}>Visibility</label>
        <select
          id={`${id}-visibility`}
          value={task.visibility}
          disabled={disabled}
          onChange={(event) =>
            change({ visibility: event.target.value === 'private' ? 'private' : 'workspace' })
          }
        >
          <option value="workspace">Everyone who sees the team</option>
          <option value="private">Private: its creator and assignee</option>
        </select>
      </div>
    </div>
  );
}

interface LabelsProps {
  task: Task;
  group: Group | undefined;
  disabled: boolean;
  onChange: (labelIds: string[]) => void;
}

function Labels({ task, group, disabled, onChange }: LabelsProps) {
  const labels = group?.taskLabels ?? [];
  return (
    <fieldset className="field task-labels-field">
      <legend>Labels</legend>
      {labels.length === 0 ? <p className="muted small">This team has no labels.</p> : null}
      {labels.map((label) => (
        <label key={label.id} className="check">
          <input
            type="checkbox"
            checked={task.labelIds.includes(label.id)}
            disabled={disabled}
            onChange={(event) => {
              const chosen = new Set(task.labelIds);
              if (event.target.checked) chosen.add(label.id);
              else chosen.delete(label.id);
              // In the team's order, as the API keeps them.
              onChange(labels.filter((l) => chosen.has(l.id)).map((l) => l.id));
            }}
          />
          <span className="label-dot" style={{ background: label.color }} aria-hidden="true" />
          {label.name}
        </label>
      ))}
    </fieldset>
  );
}

interface ProjectProps {
  task: Task;
  disabled: boolean;
  onChange: (projectId: string | null) => void;
}

function Project({ task, disabled, onChange }: ProjectProps) {
  const id = useId();
  const projects = useQuery({ ...teamProjectsQuery(task.teamId ?? ''), enabled: task.teamId !== undefined });
  const list = projects.data ?? [];
  return (
    <div className="field">
      <label htmlFor={id}>Project</label>
      <select
        id={id}
        value={task.projectId ?? ''}
        disabled={disabled || task.teamId === undefined}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">No project</option>
        {list.map((project) => (
          <option key={project.id} value={project.id}>
            {project.name}
          </option>
        ))}
        {task.projectId && !list.some((p) => p.id === task.projectId) ? (
          <option value={task.projectId}>{task.project?.name ?? 'A project you cannot see'}</option>
        ) : null}
      </select>
    </div>
  );
}
