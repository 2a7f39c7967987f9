// A team's filters, shared by its list and its board (the same search params, so switching views keeps
// them): name words, status (the list's: the board's columns are the statuses), assignee, label,
// project, priority, a due range, the order and deleted tasks; each in force shown as a removable chip.
// The view switch (List, Board) carries the filters along.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { KanbanSquare, List, X } from 'lucide-react';
import { type ChangeEvent, type ReactNode, useEffect, useId, useState } from 'react';
import type { Team } from '../../api/index.ts';
import { teamProjectsQuery } from '../../api/tasks.ts';
import { MAX_TEXT, SORTS, type TaskListSearch, withFilter, withoutFilter } from '../../lib/filters.ts';

const TEXT_DELAY_MS = 250;

export interface FilterProps {
  team: Team;
  search: TaskListSearch;
  onChange: (next: TaskListSearch) => void;
  /** The board: no status filter (its columns are the statuses). */
  board?: boolean;
}

/** The filters' controls and their chips. */
export function TaskFilters(props: FilterProps) {
  return (
    <>
      <FilterControls {...props} />
      <Chips {...props} />
    </>
  );
}

function NameFilter({ search, onChange, id }: Pick<FilterProps, 'search' | 'onChange'> & { id: string }) {
  const [text, setText] = useState(search.q ?? '');
  // The URL changed under the field (a chip removed, back and forward): show what it says.
  useEffect(() => setText(search.q ?? ''), [search.q]);
  // Typing updates the URL once the person pauses, not on every key.
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === (search.q ?? '')) return;
    const timer = setTimeout(() => onChange(withFilter(search, 'q', trimmed)), TEXT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, search, onChange]);
  return (
    <div className="filter">
      <label htmlFor={id}>Name</label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={MAX_TEXT}
        placeholder="Words the name starts with"
        onChange={(event) => setText(event.target.value)}
      />
    </div>
  );
}

function FilterControls({ team, search, onChange, board }: FilterProps) {
  const id = useId();
  const projects = useQuery(teamProjectsQuery(team.id));
  const select =
    (key: 'status' | 'assignee' | 'label' | 'project') => (event: ChangeEvent<HTMLSelectElement>) =>
      onChange(withFilter(search, key, event.target.value));
  const day = (key: 'dueFrom' | 'dueTo') => (event: ChangeEvent<HTMLInputElement>) =>
    onChange(withFilter(search, key, event.target.value));
  const flag = (key: 'priority' | 'deleted') => (event: ChangeEvent<HTMLInputElement>) =>
    onChange(withFilter(search, key, event.target.checked ? true : undefined));
  return (
    <search className="filters" aria-label="Filter tasks">
      <NameFilter id={`${id}-name`} search={search} onChange={onChange} />
      {board ? null : (
        <Choice id={`${id}-status`} label="Status" value={search.status} onChange={select('status')}>
          <option value="">Any status</option>
          {team.taskStatuses?.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          ))}
        </Choice>
      )}
      <Choice id={`${id}-assignee`} label="Assignee" value={search.assignee} onChange={select('assignee')}>
        <option value="">Anyone</option>
        {team.members?.map((member) => (
          <option key={member.id} value={member.id}>
            {member.username}
          </option>
        ))}
      </Choice>
      <Choice id={`${id}-label`} label="Label" value={search.label} onChange={select('label')}>
        <option value="">Any label</option>
        {team.taskLabels?.map((label) => (
          <option key={label.id} value={label.id}>
            {label.name}
          </option>
        ))}
      </Choice>
      <Choice id={`${id}-project`} label="Project" value={search.project} onChange={select('project')}>
        <option value="">Any project</option>
        {projects.data?.map((project) => (
          <option key={project.id} value={project.id}>
            {project.name}
          </option>
        ))}
      </Choice>
      <div className="filter">
        <label htmlFor={`${id}-from`}>Due from</label>
        <input id={`${id}-from`} type="date" value={search.dueFrom ?? ''} onChange={day('dueFrom')} />
      </div>
      <div className="filter">
        <label htmlFor={`${id}-to`}>Due until</label>
        <input id={`${id}-to`} type="date" value={search.dueTo ?? ''} onChange={day('dueTo')} />
      </div>
      <Choice
        id={`${id}-sort`}
        label="Sort"
        value={search.sort}
        onChange={(event) => onChange(withFilter(search, 'sort', sortValue(event.target.value)))}
      >
        {SORTS.map((sort) => (
          <option key={sort.key} value={sort.key === 'updated' ? '' : sort.key}>
            {sort.label}
          </option>
        ))}
      </Choice>
      <div className="filter filter-flags">
        <label className="filter-flag">
          <input type="checkbox" checked={search.priority === true} onChange={flag('priority')} />
          Priority only
        </label>
        <label className="filter-flag">
          <input type="checkbox" checked={search.deleted === true} onChange={flag('deleted')} />
          Show deleted
        </label>
      </div>
    </search>
  );
}

function sortValue(value: string): TaskListSearch['sort'] {
  return SORTS.find((sort) => sort.key === value && value !== 'updated')?.key as TaskListSearch['sort'];
}

interface ChoiceProps {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  children: ReactNode;
}

function Choice({ id, label, value, onChange, children }: ChoiceProps) {
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={onChange}>
        {children}
      </select>
    </div>
  );
}

function chipsOf(team: Team, search: TaskListSearch, board: boolean, projectName: (id: string) => string) {
  const chips: { key: keyof TaskListSearch; text: string }[] = [];
  const add = (key: keyof TaskListSearch, text: string) => chips.push({ key, text });
  if (search.status && !board)
    add('status', `Status: ${team.taskStatuses?.find((s) => s.id === search.status)?.name ?? 'unknown'}`);
  if (search.assignee)
    add(
      'assignee',
      `Assignee: ${team.members?.find((m) => m.id === search.assignee)?.username ?? 'someone else'}`,
    );
  if (search.label)
    add('label', `Label: ${team.taskLabels?.find((l) => l.id === search.label)?.name ?? 'unknown'}`);
  if (search.project) add('project', `Project: ${projectName(search.project)}`);
  if (search.priority) add('priority', 'Priority only');
  if (search.dueFrom) add('dueFrom', `Due from ${search.dueFrom}`);
  if (search.dueTo) add('dueTo', `Due until ${search.dueTo}`);
  if (search.sort) add('sort', `Sort: ${SORTS.find((s) => s.key === search.sort)?.label}`);
  if (search.deleted) add('deleted', 'Showing deleted');
  if (search.q) add('q', `Name: ${search.q}`);
  return chips;
}

/** The filters in force, each with a button that removes it. */
function Chips({ team, search, onChange, board = false }: FilterProps) {
  const projects = useQuery(teamProjectsQuery(team.id));
  const projectName = (id: string) => projects.data?.find((p) => p.id === id)?.name ?? 'another project';
  const chips = chipsOf(team, search, board, projectName);
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Filters in force">
      {chips.map((chip) => (
        <li key={chip.key} className="chip">
          {chip.text}
          <button
            type="button"
            className="chip-remove"
            aria-label={`Remove the filter ${chip.text}`}
            onClick={() => onChange(withoutFilter(search, chip.key))}
          >
            <X size={14} aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** List or board, the filters carried along. */
export function ViewSwitch({ teamKey, search }: { teamKey: string; search: TaskListSearch }) {
  return (
    <nav className="view-switch" aria-label="View">
      <Link to="/teams/$teamKey/tasks" params={{ teamKey }} search={search} className="view-link">
        <List size={14} aria-hidden="true" /> List
      </Link>
      <Link to="/teams/$teamKey/board" params={{ teamKey }} search={search} className="view-link">
        <KanbanSquare size={14} aria-hidden="true" /> Board
      </Link>
    </nav>
  );
}
