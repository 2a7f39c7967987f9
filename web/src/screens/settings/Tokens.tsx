// Personal API tokens: the person's live tokens (never their secrets: only hashes are stored), a new
// one made with a name and its secret shown once, and revoking one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { problemOf } from '../../api/index.ts';
import { apiTokensQuery, createApiToken, revokeApiToken } from '../../api/settings.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { ConfirmButton, SecretOnce, SettingsPage, when } from './parts.tsx';

export function Tokens() {
  const tokens = useQuery(apiTokensQuery);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey });
  // The secret lives in this mutation's answer only; `reset` forgets it.
  const create = useMutation({ mutationFn: createApiToken, onSettled: refresh });
  const revoke = useMutation({ mutationFn: revokeApiToken, onSettled: refresh });
  const fields = create.error ? problemOf(create.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name')).trim();
    create.mutate(name, { onSuccess: () => form.reset() });
  }

  return (
    <SettingsPage
      title="API tokens"
      intro="A token lets a program (a script, an integration) act as you through Cairn’s API. Anyone holding it can do what you can: keep it secret, and revoke it when it is no longer needed."
    >
      {create.data ? (
        <SecretOnce
          label={`Token “${create.data.name}”`}
          secret={create.data.token}
          note="Copy it now: it is shown only once, and Cairn keeps only a fingerprint of it."
          onDone={() => create.reset()}
        />
      ) : (
        <form className="form settings-form inline-form" onSubmit={onSubmit} aria-label="New token">
          <Field
            label="Token name"
            name="name"
            required
            maxLength={200}
            placeholder="CI deploys"
            error={fields.name}
          />
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Create token
          </button>
        </form>
      )}
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      {revoke.isError ? <ErrorNotice error={revoke.error} /> : null}
      {tokens.isPending ? <SkeletonRows count={3} label="Loading tokens" /> : null}
      {tokens.isError ? <ErrorNotice error={tokens.error} /> : null}
      {tokens.data?.length === 0 ? <p className="muted">You have no API token.</p> : null}
      {tokens.data && tokens.data.length > 0 ? (
        <ul className="settings-list" aria-label="Your tokens">
          {tokens.data.map((token) => (
            <li key={token.id} className="settings-row" aria-label={token.name}>
              <div className="settings-row-main">
                <span className="settings-row-title">{token.name}</span>
                <span className="muted small">
                  Created {when(token.createdAt)} · last used {when(token.lastUsedAt)}
                </span>
              </div>
              <ConfirmButton
                label="Revoke"
                confirmLabel="Revoke it"
                question={`Revoke ${token.name}? Programs using it stop working.`}
                disabled={revoke.isPending}
                onConfirm={() => revoke.mutate(token.id)}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </SettingsPage>
  );
}
