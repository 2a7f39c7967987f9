// The person's own settings that are not lists: their name (the only thing the API lets a person change
// about themselves; email and role are an owner's to change) and their password.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { meQuery, problemOf } from '../../api/index.ts';
import { changePassword, renameMe, sessionsQuery } from '../../api/settings.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { SettingsPage, useMe } from './parts.tsx';

export function Profile() {
  const me = useMe();
  const queryClient = useQueryClient();
  const router = useRouter();
  const mutation = useMutation({
    mutationFn: renameMe,
    onSuccess: async (user) => {
      // The sidebar shows the layout's copy of the person: refresh it, then the routes that read it.
      queryClient.setQueryData(meQuery.queryKey, (old) => (old ? { ...old, name: user.name } : old));
      await router.invalidate();
    },
  });
  const fields = mutation.error ? problemOf(mutation.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name')).trim();
    mutation.mutate({ id: me.id, name });
  }

  return (
    <SettingsPage title="Profile" intro="How the people of your workspace see you.">
      <form className="form settings-form" onSubmit={onSubmit}>
        <Field
          label="Name"
          name="name"
          defaultValue={me.name}
          required
          maxLength={200}
          autoComplete="name"
          error={fields.name}
        />
        <dl className="facts">
          <dt>Email</dt>
          <dd>{me.email}</dd>
          <dt>Role</dt>
          <dd>{me.role}</dd>
        </dl>
        <p className="muted small">An owner changes your email and your role.</p>
        {mutation.isError ? <ErrorNotice error={mutation.error} /> : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={mutation.isPending}>
            Save
          </button>
          <span role="status" className="small">
            {mutation.isSuccess ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </SettingsPage>
  );
}

export function Password() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const mutation = useMutation({
    mutationFn: changePassword,
    onMutate: () => setDone(false),
    onSuccess: () => {
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
    },
  });
  const fields = mutation.error ? problemOf(mutation.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    mutation.mutate(
      { currentPassword: String(data.get('currentPassword')), newPassword: String(data.get('newPassword')) },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <SettingsPage
      title="Password"
      intro="Changing your password signs you out everywhere else: every other session ends. This browser stays signed in, and API tokens keep working."
    >
      <form className="form settings-form" onSubmit={onSubmit}>
        {/* The account's name for password managers, which pair it with the new password. */}
        <input type="text" name="username" autoComplete="username" value={me.email} readOnly hidden />
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={fields.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          hint="At least 8 characters; a common password is refused."
          error={fields.newPassword}
        />
        {mutation.isError ? <ErrorNotice error={mutation.error} /> : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={mutation.isPending}>
            Change password
          </button>
          <span role="status" className="small">
            {done ? 'Your password is changed. Every other session has ended.' : ''}
          </span>
        </div>
      </form>
    </SettingsPage>
  );
}
