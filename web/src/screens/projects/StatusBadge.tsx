import type { Project } from '../../api/projects.ts';

/** A project status as a coloured dot and its name (the colour is the status's own). */
export function StatusBadge({ status }: { status: Project['status'] | undefined }) {
  if (!status) return <span className="status-badge muted">No status</span>;
  return (
    <span className="status-badge">
      <span className="label-dot" style={{ background: status.color }} aria-hidden="true" />
      {status.name}
    </span>
  );
}
