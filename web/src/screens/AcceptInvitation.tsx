import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { acceptInvitation, problemOf } from '../api/index.ts';
import { AuthLayout } from '../components/AuthLayout.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { Field } from '../components/Field.tsx';

const route = getRouteApi('/invite/$token');

/** An invitation's link: the person names themselves, sets a password, and is signed in. */
export function AcceptInvitation() {
  const { token } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: acceptInvitation,
    onSuccess: async () => {
      queryClient.clear();
      await navigate({ to: '/' });
    },
  });
  const fields = mutation.error ? problemOf(mutation.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    mutation.mutate({ token, name: String(form.get('name')), password: String(form.get('password')) });
  }

  return (
    <AuthLayout title="Join your team on Cairn">
      <form onSubmit={onSubmit} className="form">
        <Field label="Your name" name="name" autoComplete="name" required error={fields.name} />
        <Field
          label="Password"
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
          Accept and sign in
        </button>
      </form>
    </AuthLayout>
  );
}
