import type { ReactNode } from 'react';
import { useTitle } from './useTitle.ts';

/** The frame of the screens before signing in: one centred card with the view's heading. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  useTitle(title);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand" aria-hidden="true">
          Cairn
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
