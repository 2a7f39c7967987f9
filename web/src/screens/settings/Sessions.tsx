// The person's sessions (each browser signed in as them), newest first, this one marked; ending one
// signs that browser out at its next request.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { endSession, type Session, sessionsQuery } from '../../api/settings.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { ConfirmButton, SettingsPage, when } from './parts.tsx';

/** A browser's user agent in a few words (`Chrome on Linux`), or the string itself when unknown. */
function browserOf(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  if (!browser) return userAgent.slice(0, 60);
  return system ? `${browser} on ${system}` : browser;
}

export function Sessions() {
  const sessions = useQuery(sessionsQuery);
  const queryClient = useQueryClient();
  const end = useMutation({
    mutationFn: async (ids: string[]) => {
      for (const id of ids) await endSession(id);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  return (
    <SettingsPage
      title="Sessions"
      intro="Each browser signed in as you. End one you do not recognise, or that you left signed in elsewhere."
    >
      {sessions.isPending ? <SkeletonRows count={3} label="Loading sessions" /> : null}
      {sessions.isError ? <ErrorNotice error={sessions.error} /> : null}
      {end.isError ? <ErrorNotice error={end.error} /> : null}
      {sessions.data ? (
        <>
          <ul className="settings-list" aria-label="Sessions">
            {sessions.data.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                busy={end.isPending}
                onEnd={() => end.mutate([session.id])}
              />
            ))}
          </ul>
          {others.length > 1 ? (
            <div className="form-actions">
              <ConfirmButton
                label="End every other session"
                confirmLabel="End them"
                question={`End ${others.length} other sessions?`}
                disabled={end.isPending}
                onConfirm={() => end.mutate(others.map((session) => session.id))}
              />
            </div>
          ) : null}
        </>
      ) : null}
    </SettingsPage>
  );
}

function SessionRow({ session, busy, onEnd }: { session: Session; busy: boolean; onEnd: () => void }) {
  const name = browserOf(session.userAgent);
  return (
    <li className="settings-row" aria-label={session.current ? `${name}, this browser` : name}>
      <div className="settings-row-main">
        <span className="settings-row-title">
          {name}
          {session.current ? <span className="badge">This browser</span> : null}
        </span>
        <span className="muted small">
          Signed in {when(session.createdAt)}
          {session.address ? ` from ${session.address}` : ''} · last used {when(session.lastUsedAt)} · ends{' '}
          {when(session.expiresAt)}
        </span>
      </div>
      {session.current ? (
        <span className="muted small">Sign out to end it</span>
      ) : (
        <ConfirmButton
          label="End session"
          confirmLabel="End it"
          question={`End the session of ${name}?`}
          disabled={busy}
          onConfirm={onEnd}
        />
      )}
    </li>
  );
}
