// Owners: one webhook subscription: its URL, events and state, rolling its secret (the new one shown
// once; the old one still signs for 24 hours), removing it, and its delivery log with a retry for each
// attempt. Deliveries happen in the background, so the log is read again every few seconds.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  deliveriesQuery,
  retryDelivery,
  rollSecret,
  unsubscribe,
  type WebhookDelivery,
  webhookQuery,
  webhooksQuery,
} from '../../api/webhooks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { ConfirmButton, OwnerOnly, SecretOnce, when } from './parts.tsx';

const LOG_REFRESH_MS = 3000;

export function WebhookDetail({ id }: { id: string }) {
  useTitle('Webhook · Settings');
  return (
    <section className="settings-section" aria-labelledby="settings-heading">
      <p className="small">
        <Link to="/settings/webhooks">Webhooks</Link>
      </p>
      <h2 id="settings-heading">Webhook subscription</h2>
      <OwnerOnly>
        <Subscription id={id} />
        <DeliveryLog id={id} />
      </OwnerOnly>
    </section>
  );
}

function Subscription({ id }: { id: string }) {
  const sub = useQuery(webhookQuery(id));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const roll = useMutation({ mutationFn: () => rollSecret(id) });
  const remove = useMutation({
    mutationFn: () => unsubscribe(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey });
      await navigate({ to: '/settings/webhooks' });
    },
  });
  if (sub.isPending) return <SkeletonRows count={3} label="Loading the subscription" />;
  if (sub.isError) return <ErrorNotice error={sub.error} />;
  const s = sub.data;
  return (
    <>
      <dl className="facts">
        <dt>URL</dt>
        <dd className="break">{s.hookUrl}</dd>
        <dt>Events</dt>
        <dd>{s.event}</dd>
        <dt>State</dt>
        <dd>
          {s.state === 'active'
            ? 'Active'
            : `Disabled ${when(s.disabledAt)} (${s.disabledReason ?? 'unknown'})`}
          {s.failingSince ? ` · failing since ${when(s.failingSince)}` : ''}
        </dd>
        <dt>Created</dt>
        <dd>{when(s.createdAt)}</dd>
      </dl>
      {roll.data ? (
        <SecretOnce
          label="New signing secret"
          secret={roll.data}
          note="Copy it now: it is shown only once. For 24 hours each delivery is signed by the old secret too, so the receiver can switch meanwhile."
          onDone={() => roll.reset()}
        />
      ) : null}
      {roll.isError ? <ErrorNotice error={roll.error} /> : null}
      {remove.isError ? <ErrorNotice error={remove.error} /> : null}
      <div className="row-actions">
        <ConfirmButton
          label="Roll secret"
          confirmLabel="Roll it"
          question="Make a new secret? The old one stops signing in 24 hours."
          disabled={roll.isPending}
          onConfirm={() => roll.mutate()}
        />
        <ConfirmButton
          label="Delete subscription"
          confirmLabel="Delete it"
          question="Delete this subscription and its delivery log?"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
    </>
  );
}

function DeliveryLog({ id }: { id: string }) {
  const log = useInfiniteQuery({ ...deliveriesQuery(id), refetchInterval: LOG_REFRESH_MS });
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: retryDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesQuery(id).queryKey }),
  });
  const attempts = log.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <h3>Delivery log</h3>
      <p className="muted small">
        Every attempt, newest first. Retrying sends that attempt’s event once more, ahead of the queue.
      </p>
      {retry.isError ? <ErrorNotice error={retry.error} /> : null}
      {retry.isSuccess ? (
        <p role="status" className="small">
          The retry is queued; its outcome joins the log.
        </p>
      ) : null}
      {log.isPending ? <SkeletonRows count={4} label="Loading deliveries" /> : null}
      {log.isError ? <ErrorNotice error={log.error} /> : null}
      {log.isSuccess && attempts.length === 0 ? <p className="muted">Nothing was sent yet.</p> : null}
      {attempts.length > 0 ? (
        <ul className="settings-list" aria-label="Deliveries">
          {attempts.map((attempt) => (
            <DeliveryRow
              key={attempt.id}
              attempt={attempt}
              busy={retry.isPending}
              onRetry={() => retry.mutate({ id, deliveryId: attempt.id })}
            />
          ))}
        </ul>
      ) : null}
      {log.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          Show older attempts
        </button>
      ) : null}
    </>
  );
}

function DeliveryRow({
  attempt,
  busy,
  onRetry,
}: {
  attempt: WebhookDelivery;
  busy: boolean;
  onRetry: () => void;
}) {
  const ok = attempt.statusCode !== null && attempt.statusCode < 300;
  const outcome = attempt.statusCode === null ? 'No answer' : `HTTP ${attempt.statusCode}`;
  return (
    <li
      className="settings-row"
      aria-label={`${attempt.eventType}, attempt ${attempt.attempt}, ${outcome}${attempt.replay ? ', retry' : ''}`}
    >
      <div className="settings-row-main">
        <span className="settings-row-title">
          <span className={ok ? 'badge badge-ok' : 'badge badge-failed'}>{ok ? 'Delivered' : 'Failed'}</span>
          {attempt.eventType}
          {attempt.replay ? <span className="badge">retry</span> : null}
        </span>
        <span className="muted small">
          {when(attempt.createdAt)} · attempt {attempt.attempt} · {outcome} · {attempt.durationMs} ms
          {attempt.error && attempt.error !== outcome ? ` · ${attempt.error}` : ''}
          {attempt.nextAttemptAt ? ` · next try ${when(attempt.nextAttemptAt)}` : ''}
        </span>
      </div>
      <button type="button" className="button" disabled={busy} onClick={onRetry}>
        Retry
      </button>
    </li>
  );
}
