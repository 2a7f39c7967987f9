/** Rows shaped like a list's while it loads: no spinner, no layout shift when the data arrives. */
export function SkeletonRows({ count = 8, label }: { count?: number; label: string }) {
  return (
    <div className="skeleton-list" role="status" aria-label={label}>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity.
        <div key={i} className="skeleton-row" aria-hidden="true">
          <span className="skeleton skeleton-dot" />
          <span className="skeleton skeleton-id" />
          <span className="skeleton skeleton-text" style={{ width: `${40 + ((i * 17) % 40)}%` }} />
        </div>
      ))}
    </div>
  );
}
