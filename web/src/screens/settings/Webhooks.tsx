// Owners: webhook subscriptions (theirs: the API lists the caller's own), a new one with a URL and an
// event pattern (its secret shown once), and each subscription's page (WebhookDetail.tsx).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useMemo } from 'react';
import { problemOf } from '../../api/index.ts';
import { type EventPattern, subscribe, webhookEventsQuery, webhooksQuery } from '../../api/webhooks.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { OwnerOnly, SecretOnce, SettingsPage } from './parts.tsx';

export function Webhooks() {
  return (
    <SettingsPage
      title="Webhooks"
      intro="Cairn posts each event you subscribe to to your URL, signed with the subscription’s secret (Standard Webhooks), retrying for 3 days."
    >
      <OwnerOnly>
        <NewSubscription />
        <SubscriptionList />
      </OwnerOnly>
    </SettingsPage>
  );
}

/** The patterns a subscription may name: `*`, each resource's `<resource>.*`, then each event. */
function eventChoices(names: readonly string[]): string[] {
  const resources = [...new Set(names.map((name) => name.slice(0, name.lastIndexOf('.'))))];
  return ['*', ...resources.map((resource) => `${resource}.*`), ...names];
}

function NewSubscription() {
  const queryClient = useQueryClient();
  const events = useQuery(webhookEventsQuery);
  const choices = useMemo(() => eventChoices(events.data ?? []), [events.data]);
  // The secret lives in this mutation's answer only; `reset` forgets it.
  const create = useMutation({
    mutationFn: subscribe,
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey }),
  });
  const fields = create.error ? problemOf(create.error).fields : {};
  const eventId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate(
      { hookUrl: String(data.get('hookUrl')).trim(), event: String(data.get('event')) as EventPattern },
      { onSuccess: () => form.reset() },
    );
  }

  if (create.data)
    return (
      <SecretOnce
        label="Signing secret of the new subscription"
        secret={create.data.secret}
        note="Copy it now into your receiver: it is shown only once. It verifies each delivery’s signature."
        onDone={() => create.reset()}
      />
    );
  return (
    <form className="form settings-form inline-form" onSubmit={onSubmit} aria-label="New subscription">
      <Field
        label="URL"
        name="hookUrl"
        type="url"
        required
        placeholder="https://example.com/hooks/cairn"
        error={fields.hookUrl}
      />
      <div className="field">
        <label htmlFor={eventId}>Events</label>
        <select id={eventId} name="event" defaultValue="*" aria-invalid={fields.event ? true : undefined}>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice === '*' ? '* (every event)' : choice}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        Subscribe
      </button>
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      {events.isError ? <ErrorNotice error={events.error} /> : null}
    </form>
  );
}

function SubscriptionList() {
  const subs = useQuery(webhooksQuery);
  if (subs.isPending) return <SkeletonRows count={3} label="Loading subscriptions" />;
  if (subs.isError) return <ErrorNotice error={subs.error} />;
  if (subs.data.length === 0) return <p className="muted">No subscription yet.</p>;
  return (
    <ul className="settings-list" aria-label="Subscriptions">
      {subs.data.map((sub) => (
        <li key={sub.id} className="settings-row">
          <div className="settings-row-main">
            <Link to="/settings/webhooks/$id" params={{ id: sub.id }} className="settings-row-title break">
              {sub.hookUrl}
            </Link>
            <span className="muted small">
              {sub.event} ·{' '}
              {sub.state === 'active' ? 'active' : `disabled (${sub.disabledReason ?? 'unknown'})`}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
