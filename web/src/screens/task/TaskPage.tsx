// A task's page: its name as the heading (renamed in place), its description (Markdown, with a
// preview), its fields in a side column, its comments and its history; delete with an undo that
// restores. Every save names the version the person saw (If-Match); a 412 shows the newer version.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Pencil } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { Task } from '../../api/index.ts';
import { groupQuery, taskCode, taskQuery } from '../../api/tasks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { Comments } from './Comments.tsx';
import { ConflictNotice } from './ConflictNotice.tsx';
import { DeleteButton, DeletedNotice, useDeleteTask } from './DeleteTask.tsx';
import { Description } from './Description.tsx';
import { History } from './History.tsx';
import { TaskFields } from './TaskFields.tsx';
import { type Save, useTaskSave } from './useTaskSave.ts';

const route = getRouteApi('/app/tasks/$taskKey');

export function TaskPage() {
  const { taskKey } = route.useParams();
  const task = useQuery(taskQuery(taskKey));
  useTitle(task.data ? `${taskCode(task.data)} ${task.data.name}` : 'Task');
  if (task.isPending) {
    return (
      <div className="page">
        <header className="page-header">
          <h1>Task</h1>
        </header>
        <SkeletonRows count={6} label="Loading the task" />
      </div>
    );
  }
  if (task.isError) {
    return (
      <div className="page">
        <header className="page-header">
          <h1>Task</h1>
        </header>
        <ErrorNotice error={task.error} action={<Link to="/">Go to My work</Link>} />
      </div>
    );
  }
  return <TaskView taskKey={taskKey} task={task.data} />;
}

function TaskView({ taskKey, task }: { taskKey: string; task: Task }) {
  const group = useQuery(groupQuery(task));
  const saver = useTaskSave(taskKey);
  const deleting = useDeleteTask(task, taskKey);
  const deleted = task.deletedAt !== null;
  const groupName = task.team?.name ?? task.area?.name;
  const teamKey = task.team?.publicId;
  return (
    <div className="page task-page">
      <header className="page-header task-header">
        <div className="task-title">
          <p className="muted small task-context">
            <span className="task-code">{taskCode(task)}</span>
            {groupName ? (
              <>
                {' · '}
                {teamKey ? (
                  <Link to="/teams/$teamKey/tasks" params={{ teamKey }}>
                    {groupName}
                  </Link>
                ) : (
                  groupName
                )}
              </>
            ) : null}
          </p>
          <TaskName task={saver.shown(task)} disabled={deleted} save={saver.save} />
        </div>
        <DeleteButton task={task} deleting={deleting} />
      </header>
      <DeletedNotice task={task} deleting={deleting} />
      {saver.conflict ? (
        <ConflictNotice
          conflict={saver.conflict}
          group={group.data}
          saving={saver.saving}
          onKeepMine={saver.keepMine}
          onUseTheirs={saver.useTheirs}
        />
      ) : null}
      {saver.error ? <ErrorNotice error={saver.error} /> : null}
      <div className="task-layout">
        <div className="task-main">
          <Description task={task} disabled={deleted} save={saver.save} />
          <Comments task={task} />
          <History task={task} group={group.data} />
        </div>
        <aside className="task-side" aria-label="Details">
          {group.isError ? <ErrorNotice error={group.error} /> : null}
          <TaskFields task={saver.shown(task)} group={group.data} disabled={deleted} save={saver.save} />
        </aside>
      </div>
    </div>
  );
}

interface NameProps {
  task: Task;
  disabled: boolean;
  save: Save;
}

/** The heading, and a form in its place to rename the task. */
function TaskName({ task, disabled, save }: NameProps) {
  // The version the person started from: a rename made meanwhile by someone else is a conflict.
  const [editing, setEditing] = useState<{ base: Task; name: string } | null>(null);
  const id = useId();
  if (!editing) {
    return (
      <div className="task-name-row">
        <h1>{task.name}</h1>
        <button
          type="button"
          className="icon-button"
          aria-label="Rename"
          disabled={disabled}
          onClick={() => setEditing({ base: task, name: task.name })}
        >
          <Pencil size={16} aria-hidden="true" />
        </button>
      </div>
    );
  }
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!editing) return;
    const name = editing.name.trim();
    if (name === '' || name === editing.base.name) return setEditing(null);
    // A refused rename keeps the form and what was typed; a conflict shows both names above.
    if ((await save(editing.base, { name })) !== 'failed') setEditing(null);
  }
  return (
    <form className="task-rename" onSubmit={onSubmit}>
      <h1 className="visually-hidden">{task.name}</h1>
      <label htmlFor={id} className="visually-hidden">
        Name
      </label>
      <input
        id={id}
        className="task-rename-input"
        value={editing.name}
        maxLength={512}
        required
        // biome-ignore lint/a11y/noAutofocus: the person just asked to rename; the field is what they want.
        autoFocus
        onChange={(event) => setEditing({ ...editing, name: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setEditing(null);
        }}
      />
      <button type="submit" className="button button-primary">
        Save
      </button>
      <button type="button" className="button" onClick={() => setEditing(null)}>
        Cancel
      </button>
    </form>
  );
}
