import { useMutation } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { problemOf, resetPassword } from '../api/index.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { Field } from '../components/Field.tsx';

/**
 * A one-time password link: `setup` (the first start's link for the owner) or `reset` (asked for, or
 * made by an owner). Both set the password with the link's token; then the person signs in.
 */
export function SetPassword({ purpose }: { purpose: 'setup' | 'reset' }) {
  const { token } = useParams({ strict: false }) as { token: string };
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: () => navigate({ to: '/sign-in', search: { done: 'password' } }),
  });
  const fields = mutation.error ? problemOf(mutation.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    mutation.mutate({ token, password: String(new FormData(event.currentTarget).get('password')) });
  }

  return (
    <AuthLayout title={purpose === 'setup' ? 'Set the owner’s password' : 'Choose a new password'}>
      <form onSubmit={onSubmit} className="form">
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          hint="At least 8 characters; a common password is refused."
          error={fields.password}
        />
        {mutation.isError ? <ErrorNotice error={mutation.error} /> : null}
        <button type="submit" className="button button-primary" disabled={mutation.isPending}>
          Set password
        </button>
      </form>
    </AuthLayout>
  );
}
