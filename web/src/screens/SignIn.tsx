import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { problemOf, signIn } from '../api/index.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { Field } from '../components/Field.tsx';

const route = getRouteApi('/sign-in');

export function SignIn() {
  const search = route.useSearch();
  const router = useRouter();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: signIn,
    onSuccess: async () => {
      // Whatever was cached belonged to no one or to someone else.
      queryClient.clear();
      router.history.push(search.redirect ?? '/');
    },
  });
  const fields = mutation.error ? problemOf(mutation.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    mutation.mutate({ email: String(form.get('email')), password: String(form.get('password')) });
  }

  return (
    <AuthLayout title="Sign in">
      {search.done === 'password' ? (
        <p className="notice" role="status">
          Your password is set. Sign in with it.
        </p>
      ) : null}
      <form onSubmit={onSubmit} className="form">
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          error={fields.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fields.password}
        />
        {mutation.isError ? <ErrorNotice error={mutation.error} /> : null}
        <button type="submit" className="button button-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthLayout>
  );
}
