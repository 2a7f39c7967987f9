// Owners: the workspace's people with their roles (changed in place), and invitations: invite by email
// with a role (the link shown once, to pass on when no mail goes out), the open ones, sent again
// (a new link that replaces the old) or revoked. The API has no removal of a person.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId } from 'react';
import { problemOf } from '../../api/index.ts';
import {
  changeRole,
  type Invitation,
  invite,
  openInvitationsQuery,
  ROLES,
  type Role,
  revokeInvitation,
  type User,
  usersQuery,
} from '../../api/workspace.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { ConfirmButton, OwnerOnly, SecretOnce, SettingsPage, useMe, when } from './parts.tsx';

export function Members() {
  return (
    <SettingsPage title="Members" intro="The people of your workspace and what each may do.">
      <OwnerOnly>
        <MemberList />
      </OwnerOnly>
    </SettingsPage>
  );
}

function MemberList() {
  const users = useQuery(usersQuery);
  const queryClient = useQueryClient();
  const role = useMutation({
    mutationFn: changeRole,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
  if (users.isPending) return <SkeletonRows count={4} label="Loading members" />;
  if (users.isError) return <ErrorNotice error={users.error} />;
  return (
    <>
      {role.isError ? <ErrorNotice error={role.error} /> : null}
      <ul className="settings-list" aria-label="Members">
        {users.data.map((user) => (
          <MemberRow
            key={user.id}
            user={user}
            busy={role.isPending}
            onRole={(next) => role.mutate({ id: user.id, role: next })}
          />
        ))}
      </ul>
    </>
  );
}

function MemberRow({ user, busy, onRole }: { user: User; busy: boolean; onRole: (role: Role) => void }) {
  const me = useMe();
  const id = useId();
  return (
    <li className="settings-row" aria-label={user.name}>
      <div className="settings-row-main">
        <span className="settings-row-title">
          {user.name}
          {user.id === me.id ? <span className="badge">You</span> : null}
        </span>
        <span className="muted small">
          {user.email} · last active {when(user.lastAccessedAt)}
        </span>
      </div>
      <div className="row-control">
        <label htmlFor={id} className="visually-hidden">
          Role of {user.name}
        </label>
        <select
          id={id}
          value={user.role}
          disabled={busy}
          onChange={(event) => onRole(event.target.value as Role)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </div>
    </li>
  );
}

export function Invitations() {
  return (
    <SettingsPage
      title="Invitations"
      intro="Invite someone by email with the role they will have. The link works once, for 7 days; inviting the same email again replaces it."
    >
      <OwnerOnly>
        <InvitationsBody />
      </OwnerOnly>
    </SettingsPage>
  );
}

function InvitationsBody() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: openInvitationsQuery.queryKey });
  // The link lives in this mutation's answer only; `reset` forgets it.
  const create = useMutation({ mutationFn: invite, onSettled: refresh });
  const fields = create.error ? problemOf(create.error).fields : {};
  const roleId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate(
      { email: String(data.get('email')).trim(), role: String(data.get('role')) as Role },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <>
      {create.data ? (
        <SecretOnce
          label={`Invitation link for ${create.data.email}`}
          secret={create.data.url}
          note={
            create.data.emailed
              ? 'A mail with this link is on its way. It is shown only now.'
              : 'No mail is sent from this Cairn: pass the link on yourself. It is shown only now.'
          }
          onDone={() => create.reset()}
        />
      ) : (
        <form className="form settings-form inline-form" onSubmit={onSubmit} aria-label="Invite someone">
          <Field
            label="Email"
            name="email"
            type="email"
            required
            maxLength={320}
            autoComplete="off"
            error={fields.email}
          />
          <div className="field">
            <label htmlFor={roleId}>Role</label>
            <select id={roleId} name="role" defaultValue="member">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            Invite
          </button>
        </form>
      )}
      {create.isError ? <ErrorNotice error={create.error} /> : null}
      <h3>Open invitations</h3>
      <OpenInvitations
        onAgain={(invitation) => create.mutate({ email: invitation.email, role: invitation.role })}
        busy={create.isPending}
      />
    </>
  );
}

function OpenInvitations({ onAgain, busy }: { onAgain: (invitation: Invitation) => void; busy: boolean }) {
  const invitations = useQuery(openInvitationsQuery);
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: revokeInvitation,
    onSettled: () => queryClient.invalidateQueries({ queryKey: openInvitationsQuery.queryKey }),
  });
  if (invitations.isPending) return <SkeletonRows count={3} label="Loading invitations" />;
  if (invitations.isError) return <ErrorNotice error={invitations.error} />;
  if (invitations.data.length === 0) return <p className="muted">No invitation is open.</p>;
  return (
    <>
      {revoke.isError ? <ErrorNotice error={revoke.error} /> : null}
      <ul className="settings-list" aria-label="Open invitations">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="settings-row" aria-label={invitation.email}>
            <div className="settings-row-main">
              <span className="settings-row-title">{invitation.email}</span>
              <span className="muted small">
                {invitation.role} · invited {when(invitation.createdAt)} · link valid until{' '}
                {when(invitation.expiresAt)}
              </span>
            </div>
            <div className="row-actions">
              <button type="button" className="button" disabled={busy} onClick={() => onAgain(invitation)}>
                Send again
              </button>
              <ConfirmButton
                label="Revoke"
                confirmLabel="Revoke it"
                question={`Revoke the invitation of ${invitation.email}?`}
                disabled={revoke.isPending}
                onConfirm={() => revoke.mutate(invitation.id)}
              />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
