import { Link } from '@tanstack/react-router';
import { useTitle } from '../components/useTitle.ts';

export function NotFound() {
  useTitle('Not found');
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1>This page does not exist</h1>
        <p>The link may be mistyped, or the page moved.</p>
        <Link to="/" className="button">
          Go to My work
        </Link>
      </div>
    </main>
  );
}
