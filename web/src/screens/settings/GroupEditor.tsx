// Owners: one team or area, by code: its name, statuses (name and stage, in order), labels (name and
// colour) and members (role owner or member). Each part is saved on its own, sending its whole list:
// the API replaces a list with the one sent (entries keep their ids, and so their tasks).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { problemOf } from '../../api/index.ts';
import {
  type Group,
  type GroupChange,
  type GroupKind,
  groupQuery,
  saveGroup,
  usersQuery,
} from '../../api/workspace.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { OwnerOnly } from './parts.tsx';

const STAGES = ['backlog', 'unstarted', 'started', 'completed', 'canceled'] as const;
type Stage = (typeof STAGES)[number];
type MemberRole = 'owner' | 'member';

let nextKey = 0;
const newKey = () => `new-${++nextKey}`;

export function GroupEditor({ kind, groupKey }: { kind: GroupKind; groupKey: string }) {
  const group = useQuery(groupQuery(kind, groupKey));
  const word = kind === 'team' ? 'Team' : 'Area';
  useTitle(group.data ? `${group.data.name} · Settings` : `${word} · Settings`);
  return (
    <section className="settings-section" aria-labelledby="settings-heading">
      <p className="small">
        <Link to="/settings/teams">Teams and areas</Link>
      </p>
      <h2 id="settings-heading">{group.data ? `${word} ${group.data.name}` : word}</h2>
      <OwnerOnly>
        {group.isPending ? <SkeletonRows count={4} label={`Loading the ${kind}`} /> : null}
        {group.isError ? <ErrorNotice error={group.error} /> : null}
        {group.data ? <GroupParts kind={kind} group={group.data} /> : null}
      </OwnerOnly>
    </section>
  );
}

/** Saves one part of the group; the answer becomes the cached group, and lists of groups refresh. */
function useSaveGroup(kind: GroupKind, group: Group) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Omit<GroupChange, 'id'>) => saveGroup(kind, { ...change, id: group.id }),
    onSuccess: (saved) => {
      queryClient.setQueryData(groupQuery(kind, group.publicId).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: ['teams'] });
      void queryClient.invalidateQueries({ queryKey: [kind] });
    },
  });
}

function GroupParts({ kind, group }: { kind: GroupKind; group: Group }) {
  return (
    <>
      <NamePart kind={kind} group={group} />
      <StatusesPart kind={kind} group={group} />
      <LabelsPart kind={kind} group={group} />
      <MembersPart kind={kind} group={group} />
    </>
  );
}

function SaveRow({ pending, success, label }: { pending: boolean; success: boolean; label: string }) {
  return (
    <div className="form-actions">
      <button type="submit" className="button button-primary" disabled={pending}>
        {label}
      </button>
      <span role="status" className="small">
        {success ? 'Saved.' : ''}
      </span>
    </div>
  );
}

function NamePart({ kind, group }: { kind: GroupKind; group: Group }) {
  const save = useSaveGroup(kind, group);
  const fields = save.error ? problemOf(save.error).fields : {};
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate({ name: String(new FormData(event.currentTarget).get('name')).trim() });
  }
  return (
    <form className="form settings-form" onSubmit={onSubmit} aria-label="Name">
      <h3>Name</h3>
      <Field
        label="Name"
        name="name"
        defaultValue={group.name}
        required
        maxLength={200}
        error={fields.name}
      />
      <p className="muted small">Code {group.publicId} (task ids start with it; it does not change).</p>
      {save.isError ? <ErrorNotice error={save.error} /> : null}
      <SaveRow pending={save.isPending} success={save.isSuccess} label="Save name" />
    </form>
  );
}

interface StatusDraft {
  key: string;
  id?: string;
  name: string;
  stage: Stage;
  color?: string;
}

function StatusesPart({ kind, group }: { kind: GroupKind; group: Group }) {
  const save = useSaveGroup(kind, group);
  const [drafts, setDrafts] = useState<StatusDraft[]>(() =>
    (group.taskStatuses ?? []).map((s) => ({
      key: s.id,
      id: s.id,
      name: s.name,
      stage: s.stage,
      color: s.color,
    })),
  );
  const id = useId();
  const change = (key: string, patch: Partial<StatusDraft>) =>
    setDrafts((list) => list.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      {
        taskStatuses: drafts.map(({ id: statusId, name, stage, color }) => ({
          ...(statusId ? { id: statusId } : {}),
          name: name.trim(),
          stage,
          ...(color ? { color } : {}),
        })),
      },
      // New statuses have ids now: take them, so a second save keeps them.
      {
        onSuccess: (saved) =>
          setDrafts(
            (saved.taskStatuses ?? []).map((s) => ({
              key: s.id,
              id: s.id,
              name: s.name,
              stage: s.stage,
              color: s.color,
            })),
          ),
      },
    );
  }
  return (
    <form className="form settings-form" onSubmit={onSubmit} aria-label="Statuses">
      <h3>Statuses</h3>
      <p className="muted small">
        In the order the board shows them. A status that tasks still use cannot be removed.
      </p>
      <ul className="edit-list">
        {drafts.map((draft, index) => (
          <li key={draft.key} className="edit-row">
            <label htmlFor={`${id}-${draft.key}-name`} className="visually-hidden">
              Status {index + 1} name
            </label>
            <input
              id={`${id}-${draft.key}-name`}
              value={draft.name}
              required
              maxLength={200}
              onChange={(e) => change(draft.key, { name: e.target.value })}
            />
            <label htmlFor={`${id}-${draft.key}-stage`} className="visually-hidden">
              Status {index + 1} stage
            </label>
            <select
              id={`${id}-${draft.key}-stage`}
              value={draft.stage}
              onChange={(e) => change(draft.key, { stage: e.target.value as Stage })}
            >
              {STAGES.map((stage) => (
                <option key={stage} value={stage}>
                  {stage}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove status ${draft.name || index + 1}`}
              disabled={drafts.length === 1}
              onClick={() => setDrafts((list) => list.filter((d) => d.key !== draft.key))}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <div>
        <button
          type="button"
          className="button"
          onClick={() => setDrafts((list) => [...list, { key: newKey(), name: '', stage: 'unstarted' }])}
        >
          Add a status
        </button>
      </div>
      {save.isError ? <ErrorNotice error={save.error} /> : null}
      <SaveRow pending={save.isPending} success={save.isSuccess} label="Save statuses" />
    </form>
  );
}

interface LabelDraft {
  key: string;
  id?: string;
  name: string;
  color: string;
}

const LABEL_COLOR = '#5e6ad2';

function LabelsPart({ kind, group }: { kind: GroupKind; group: Group }) {
  const save = useSaveGroup(kind, group);
  const fromGroup = (g: Group) =>
    (g.taskLabels ?? []).map((l) => ({ key: l.id, id: l.id, name: l.name, color: l.color }));
  const [drafts, setDrafts] = useState<LabelDraft[]>(() => fromGroup(group));
  const id = useId();
  const change = (key: string, patch: Partial<LabelDraft>) =>
    setDrafts((list) => list.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      {
        taskLabels: drafts.map(({ id: labelId, name, color }) => ({
          ...(labelId ? { id: labelId } : {}),
          name: name.trim(),
          color,
        })),
      },
      { onSuccess: (saved) => setDrafts(fromGroup(saved)) },
    );
  }
  return (
    <form className="form settings-form" onSubmit={onSubmit} aria-label="Labels">
      <h3>Labels</h3>
      {drafts.length === 0 ? <p className="muted small">No label yet.</p> : null}
      <ul className="edit-list">
        {drafts.map((draft, index) => (
          <li key={draft.key} className="edit-row">
            <label htmlFor={`${id}-${draft.key}-name`} className="visually-hidden">
              Label {index + 1} name
            </label>
            <input
              id={`${id}-${draft.key}-name`}
              value={draft.name}
              required
              maxLength={200}
              onChange={(e) => change(draft.key, { name: e.target.value })}
            />
            <label htmlFor={`${id}-${draft.key}-color`} className="visually-hidden">
              Label {index + 1} colour
            </label>
            <input
              id={`${id}-${draft.key}-color`}
              type="color"
              className="color-input"
              value={draft.color}
              onChange={(e) => change(draft.key, { color: e.target.value })}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove label ${draft.name || index + 1}`}
              onClick={() => setDrafts((list) => list.filter((d) => d.key !== draft.key))}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <div>
        <button
          type="button"
          className="button"
          onClick={() => setDrafts((list) => [...list, { key: newKey(), name: '', color: LABEL_COLOR }])}
        >
          Add a label
        </button>
      </div>
      {save.isError ? <ErrorNotice error={save.error} /> : null}
      <SaveRow pending={save.isPending} success={save.isSuccess} label="Save labels" />
    </form>
  );
}

interface MemberDraft {
  id: string;
  role: MemberRole;
  name: string;
}

function MembersPart({ kind, group }: { kind: GroupKind; group: Group }) {
  const save = useSaveGroup(kind, group);
  const users = useQuery(usersQuery);
  const fromGroup = (g: Group) =>
    (g.members ?? []).map((m) => ({ id: m.id, role: m.role, name: m.username }));
  const [drafts, setDrafts] = useState<MemberDraft[]>(() => fromGroup(group));
  const [adding, setAdding] = useState('');
  const id = useId();
  const others = (users.data ?? []).filter((user) => !drafts.some((d) => d.id === user.id));
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      { members: drafts.map(({ id: userId, role }) => ({ id: userId, role })) },
      { onSuccess: (saved) => setDrafts(fromGroup(saved)) },
    );
  }
  function add() {
    const user = users.data?.find((u) => u.id === adding);
    if (!user) return;
    setDrafts((list) => [...list, { id: user.id, role: 'member', name: user.name }]);
    setAdding('');
  }
  return (
    <form className="form settings-form" onSubmit={onSubmit} aria-label="Members">
      <h3>Members</h3>
      <ul className="edit-list">
        {drafts.map((draft) => (
          <li key={draft.id} className="edit-row">
            <span className="edit-row-name">{draft.name}</span>
            <label htmlFor={`${id}-${draft.id}`} className="visually-hidden">
              Role of {draft.name}
            </label>
            <select
              id={`${id}-${draft.id}`}
              value={draft.role}
              onChange={(e) =>
                setDrafts((list) =>
                  list.map((d) => (d.id === draft.id ? { ...d, role: e.target.value as MemberRole } : d)),
                )
              }
            >
              <option value="member">member</option>
              <option value="owner">owner</option>
            </select>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove ${draft.name}`}
              onClick={() => setDrafts((list) => list.filter((d) => d.id !== draft.id))}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      {users.isError ? <ErrorNotice error={users.error} /> : null}
      <div className="edit-row">
        <label htmlFor={`${id}-add`} className="visually-hidden">
          Person to add
        </label>
        <select id={`${id}-add`} value={adding} onChange={(e) => setAdding(e.target.value)}>
          <option value="">Choose a person…</option>
          {others.map((user) => (
            <option key={user.id} value={user.id}>
              {user.name} ({user.email})
            </option>
          ))}
        </select>
        <button type="button" className="button" disabled={!adding} onClick={add}>
          Add member
        </button>
      </div>
      {save.isError ? <ErrorNotice error={save.error} /> : null}
      <SaveRow pending={save.isPending} success={save.isSuccess} label="Save members" />
    </form>
  );
}
