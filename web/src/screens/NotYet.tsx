import { useTitle } from '../components/useTitle.ts';

/** A view the web app does not have yet: said plainly, with where to do it meanwhile. */
export function NotYet({ title }: { title: string }) {
  useTitle(title);
  return (
    <div className="page">
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      <div className="empty">
        <p>{title} is not in the web app yet.</p>
        <p className="muted">
          Everything it will show is in the API meanwhile: see the <a href="/docs">API reference</a>.
        </p>
      </div>
    </div>
  );
}
