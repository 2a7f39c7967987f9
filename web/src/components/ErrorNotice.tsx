import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { problemOf } from '../api/index.ts';

/** A failure as the API explained it (its problem `detail`), with the way out when there is one. */
export function ErrorNotice({ error, action }: { error: unknown; action?: ReactNode }) {
  const problem = problemOf(error);
  return (
    <div className="notice notice-error" role="alert">
      <CircleAlert aria-hidden="true" size={16} />
      <div>
        <p>{problem.detail}</p>
        {problem.requestId ? <p className="muted small">Request {problem.requestId}</p> : null}
        {action ? <div className="notice-actions">{action}</div> : null}
      </div>
    </div>
  );
}
