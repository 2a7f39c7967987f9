// Owners: the workspace's teams (archived ones marked), a new team or area, and an area opened by its
// code (the API lists teams, not areas). Each opens in the editor (GroupEditor.tsx).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId } from 'react';
import { problemOf } from '../../api/index.ts';
import { allTeamsQuery, type GroupKind, saveGroup } from '../../api/workspace.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { OwnerOnly, SettingsPage } from './parts.tsx';

export function Teams() {
  return (
    <SettingsPage
      title="Teams and areas"
      intro="A team works on tasks together; an area is the same kind of group for a part of the work that is not a team’s. Each has its own statuses, labels and members."
    >
      <OwnerOnly>
        <NewGroup />
        <TeamList />
        <OpenArea />
      </OwnerOnly>
    </SettingsPage>
  );
}

function NewGroup() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const kindId = useId();
  const create = useMutation({
    mutationFn: (input: { kind: GroupKind; name: string; publicId?: string }) =>
      saveGroup(input.kind, { name: input.name, ...(input.publicId ? { publicId: input.publicId } : {}) }),
    onSuccess: async (group, input) => {
      await queryClient.invalidateQueries({ queryKey: ['teams'] });
      const params = { key: group.publicId };
      await navigate(
        input.kind === 'team'
          ? { to: '/settings/teams/$key', params }
          : { to: '/settings/areas/$key', params },
      );
    },
  });
  const fields = create.error ? problemOf(create.error).fields : {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    create.mutate({
      kind: data.get('kind') === 'area' ? 'area' : 'team',
      name: String(data.get('name')).trim(),
      publicId: String(data.get('publicId')).trim(),
    });
  }

  return (
    <form className="form settings-form inline-form" onSubmit={onSubmit} aria-label="New team or area">
      <Field
        label="Name"
        name="name"
        required
        maxLength={200}
        placeholder="Engineering"
        error={fields.name}
      />
      <Field
        label="Code"
        name="publicId"
        maxLength={10}
        pattern="[A-Za-z0-9]{1,10}"
        placeholder="ENG"
        hint="1–10 letters or digits; made from the name when left empty."
        error={fields.publicId}
      />
      <div className="field">
        <label htmlFor={kindId}>Kind</label>
        <select id={kindId} name="kind" defaultValue="team">
          <option value="team">Team</option>
          <option value="area">Area</option>
        </select>
      </div>
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        Create
      </button>
      {create.isError ? <ErrorNotice error={create.error} /> : null}
    </form>
  );
}

function TeamList() {
  const teams = useQuery(allTeamsQuery);
  if (teams.isPending) return <SkeletonRows count={4} label="Loading teams" />;
  if (teams.isError) return <ErrorNotice error={teams.error} />;
  if (teams.data.length === 0) return <p className="muted">No team yet: create the first above.</p>;
  return (
    <ul className="settings-list" aria-label="Teams">
      {teams.data.map((team) => (
        <li key={team.id} className="settings-row">
          <div className="settings-row-main">
            <Link to="/settings/teams/$key" params={{ key: team.publicId }} className="settings-row-title">
              <span className="team-code">{team.publicId}</span> {team.name}
            </Link>
            <span className="muted small">
              {team.privacy === 'private' ? 'Private' : 'Whole workspace'}
              {team.archivedAt ? ' · archived' : ''}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}

function OpenArea() {
  const navigate = useNavigate();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const key = String(new FormData(event.currentTarget).get('area')).trim();
    if (key) void navigate({ to: '/settings/areas/$key', params: { key: key.toUpperCase() } });
  }
  return (
    <form className="form settings-form inline-form" onSubmit={onSubmit} aria-label="Open an area">
      <Field
        label="Area code"
        name="area"
        required
        maxLength={10}
        pattern="[A-Za-z0-9]{1,10}"
        placeholder="FIN"
      />
      <button type="submit" className="button">
        Open area
      </button>
    </form>
  );
}
