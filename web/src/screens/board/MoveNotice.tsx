// What a move that was not saved says: after a 412, the task as it is now (someone changed it since the
// person saw it) beside the move they made, to make it again or leave the card where it now is; after
// another failure, the API's detail (the card is back where it was).
import { TriangleAlert } from 'lucide-react';
import type { Task, Team } from '../../api/index.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { MoveConflict } from './useBoardMoves.ts';

interface MoveNoticeProps {
  team: Team;
  conflict: MoveConflict | null;
  failure: { error: unknown; task: Task } | null;
  onRetry: () => void;
  onDismiss: () => void;
}

export function MoveNotice({ team, conflict, failure, onRetry, onDismiss }: MoveNoticeProps) {
  const statusName = (id: string) => team.taskStatuses?.find((s) => s.id === id)?.name ?? 'another status';
  if (conflict) {
    const { latest } = conflict;
    const code = `${team.publicId}-${latest.publicId}`;
    const labels = latest.labelIds
      .map((id) => team.taskLabels?.find((l) => l.id === id)?.name)
      .filter(Boolean)
      .join(', ');
    return (
      <section className="notice notice-conflict" role="alert" aria-labelledby="move-conflict-heading">
        <TriangleAlert aria-hidden="true" size={16} />
        <div className="conflict-body">
          <h2 id="move-conflict-heading" className="conflict-heading">
            Someone changed {code} before your move was saved
          </h2>
          <p>
            Your move to <strong>{statusName(conflict.statusId)}</strong> was not saved. The task as it is
            now:
          </p>
          <dl className="move-latest">
            <dt>Name</dt>
            <dd>{latest.name}</dd>
            <dt>Status</dt>
            <dd>{statusName(latest.statusId)}</dd>
            <dt>Assignee</dt>
            <dd>{latest.assignee?.name ?? 'Nobody'}</dd>
            <dt>Priority</dt>
            <dd>{latest.priority ? 'Yes' : 'No'}</dd>
            <dt>Labels</dt>
            <dd>{labels || 'None'}</dd>
          </dl>
          <div className="notice-actions">
            <button type="button" className="button button-primary" onClick={onRetry}>
              Move it to {statusName(conflict.statusId)} again
            </button>
            <button type="button" className="button" onClick={onDismiss}>
              Leave it in {statusName(latest.statusId)}
            </button>
          </div>
        </div>
      </section>
    );
  }
  if (failure) {
    return (
      <ErrorNotice
        error={failure.error}
        action={
          <button type="button" className="button" onClick={onDismiss}>
            Dismiss
          </button>
        }
      />
    );
  }
  return null;
}
