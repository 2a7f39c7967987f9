// A 412: someone changed the task after the person read it. Their change is shown beside the newer
// version, field by field, and the person chooses: save theirs over it again, or keep the newer one.
import { TriangleAlert } from 'lucide-react';
import type { Task } from '../../api/index.ts';
import type { Group, TaskChanges } from '../../api/tasks.ts';
import type { Conflict } from './useTaskSave.ts';
import { describeValue, FIELD_NAMES } from './values.ts';

interface ConflictProps {
  conflict: Conflict;
  group: Group | undefined;
  saving: boolean;
  onKeepMine: () => void;
  onUseTheirs: () => void;
}

export function ConflictNotice({ conflict, group, saving, onKeepMine, onUseTheirs }: ConflictProps) {
  const fields = Object.keys(conflict.changes) as (keyof TaskChanges)[];
  return (
    <section className="notice notice-conflict" role="alert" aria-labelledby="task-conflict-heading">
      <TriangleAlert aria-hidden="true" size={16} />
      <div className="conflict-body">
        <h2 id="task-conflict-heading" className="conflict-heading">
          Someone changed this task while you were editing it
        </h2>
        <p>Your change was not saved. Here it is beside the newer version:</p>
        <dl className="conflict-fields">
          {fields.map((field) => (
            <div key={field} className="conflict-field">
              <dt>{FIELD_NAMES[field]}</dt>
              <dd>
                <span className="conflict-label">Yours</span>
                <Mine field={field} changes={conflict.changes} task={conflict.latest} group={group} />
              </dd>
              <dd>
                <span className="conflict-label">Now</span>
                <Theirs field={field} latest={conflict.latest} group={group} />
              </dd>
            </div>
          ))}
        </dl>
        <div className="notice-actions">
          <button type="button" className="button button-primary" disabled={saving} onClick={onKeepMine}>
            Save mine over it
          </button>
          <button type="button" className="button" disabled={saving} onClick={onUseTheirs}>
            Keep the newer version
          </button>
        </div>
      </div>
    </section>
  );
}

interface MineProps {
  field: keyof TaskChanges;
  changes: TaskChanges;
  task: Task;
  group: Group | undefined;
}

function Mine({ field, changes, task, group }: MineProps) {
  if (field === 'description') return <pre className="conflict-markdown">{changes.description}</pre>;
  return <span className="conflict-value">{describeValue(field, changes[field], task, group)}</span>;
}

function Theirs({
  field,
  latest,
  group,
}: {
  field: keyof TaskChanges;
  latest: Task;
  group: Group | undefined;
}) {
  if (field === 'description') {
    return <pre className="conflict-markdown">{latest.description.markdown ?? ''}</pre>;
  }
  const value = latest[field];
  return <span className="conflict-value">{describeValue(field, value, latest, group)}</span>;
}
