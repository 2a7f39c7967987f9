import { useMutation } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { problemOf, resetPassword } from '../api/index.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { Field } from '../components/Field.tsx';

const route = getRouteApi('/reset-password/$token');

/**
 * A one-time password link (`<CAIRN_PUBLIC_URL>/reset-password/<token>`): the first start's setup link
 * for the owner, a reset asked for, or one an owner made. It sets the password; then the person signs in.
 */
export function SetPassword() {
  const { token } = route.useParams();
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
    <AuthLayout title="Set your password">
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
