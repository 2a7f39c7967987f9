// The command palette (Ctrl/⌘ K): what the person types searches tasks, projects, documents and teams
// through the API's search endpoints (prefix matching on words, as the API does), shown grouped by kind,
// then the commands that match. ↑/↓ move, Enter opens the highlighted one, Esc closes. cmdk gives the
// combobox and its keyboard; the results come from the server, so cmdk's own filtering is off.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, useLocation, useNavigate } from '@tanstack/react-router';
import { Command } from 'cmdk';
import { CornerDownLeft, FileText, FolderKanban, ListTodo, Users } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { myTeamsQuery } from '../../api/index.ts';
import {
  documentSearchQuery,
  type FoundDocument,
  type FoundProject,
  type FoundTask,
  type FoundTeam,
  PALETTE_LIMIT,
  projectSearchQuery,
  taskSearchQuery,
  teamSearchQuery,
} from '../../api/search.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { matchesWords, searchText } from '../../lib/search-words.ts';
import { paletteCommands } from './commands.ts';
import { Modal } from './Modal.tsx';
import { documentPath, projectPath, taskCode, taskPath, teamTasksPath } from './paths.ts';

const appRoute = getRouteApi('/app');
/** Searches start once the person pauses this long, not on every key. */
const TYPING_PAUSE_MS = 150;

interface Item {
  value: string;
  group: 'Tasks' | 'Projects' | 'Documents' | 'Teams' | 'Commands';
  content: ReactNode;
  onSelect: () => void;
}

export function Palette({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} label="Command palette" className="palette">
      <PaletteBody onClose={onClose} />
    </Modal>
  );
}

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function useResults(text: string) {
  const enabled = text !== '';
  const options = { enabled, placeholderData: keepPreviousData } as const;
  const tasks = useQuery({ ...taskSearchQuery(text, PALETTE_LIMIT), ...options });
  const projects = useQuery({ ...projectSearchQuery(text, PALETTE_LIMIT), ...options });
  const documents = useQuery({ ...documentSearchQuery(text, PALETTE_LIMIT), ...options });
  const teams = useQuery({ ...teamSearchQuery(text, PALETTE_LIMIT), ...options });
  const all = [tasks, projects, documents, teams];
  return {
    tasks: enabled ? (tasks.data ?? []) : [],
    projects: enabled ? (projects.data ?? []) : [],
    documents: enabled ? (documents.data ?? []) : [],
    teams: enabled ? (teams.data ?? []) : [],
    pending: enabled && all.some((query) => query.isPending || query.isPlaceholderData),
    error: all.find((query) => query.isError)?.error,
  };
}

function Row({ icon, name, code, meta }: { icon: ReactNode; name: string; code?: string; meta?: string }) {
  return (
    <>
      {icon}
      {code ? <span className="palette-code">{code}</span> : null}
      <span className="palette-name">{name}</span>
      {meta ? <span className="palette-meta">{meta}</span> : null}
    </>
  );
}

const ICON = { size: 16, 'aria-hidden': true } as const;

interface Found {
  tasks: FoundTask[];
  projects: FoundProject[];
  documents: FoundDocument[];
  teams: FoundTeam[];
}

/** The found things as palette items, by kind; choosing one opens its page. */
function resultItems(found: Found, go: (href: string) => void): Item[] {
  return [
    ...found.tasks.map(
      (task): Item => ({
        value: `task:${task.id}`,
        group: 'Tasks',
        content: (
          <Row
            icon={<ListTodo {...ICON} />}
            name={task.name}
            code={taskCode(task)}
            meta={task.team?.name ?? task.area?.name}
          />
        ),
        onSelect: () => go(taskPath(task)),
      }),
    ),
    ...found.projects.map(
      (project): Item => ({
        value: `project:${project.id}`,
        group: 'Projects',
        content: (
          <Row
            icon={<FolderKanban {...ICON} />}
            name={project.name}
            meta={project.teams?.map((team) => team.publicId).join(', ')}
          />
        ),
        onSelect: () => go(projectPath(project)),
      }),
    ),
    ...found.documents.map(
      (document): Item => ({
        value: `document:${document.id}`,
        group: 'Documents',
        content: <Row icon={<FileText {...ICON} />} name={document.name} meta={document.team?.publicId} />,
        onSelect: () => go(documentPath(document)),
      }),
    ),
    // Choosing a team opens its tasks.
    ...found.teams.map(
      (team): Item => ({
        value: `team:${team.id}`,
        group: 'Teams',
        content: (
          <Row icon={<Users {...ICON} />} name={`Go to ${team.name}`} code={team.publicId} meta="Tasks" />
        ),
        onSelect: () => go(teamTasksPath(team)),
      }),
    ),
  ];
}

/** What the palette says about its results (a status, read out as it changes). */
function statusText(typed: string, searching: boolean, count: number): string {
  if (searching) return 'Searching…';
  if (count === 0) return `Nothing matches “${typed}”.`;
  if (typed === '') return '';
  return `${count} ${count === 1 ? 'result' : 'results'}`;
}

/** The items, by kind, then the commands. */
function Groups({ items }: { items: Item[] }) {
  return (
    <Command.List className="palette-list" label="Results and commands">
      {(['Tasks', 'Projects', 'Documents', 'Teams', 'Commands'] as const).map((group) => {
        const inGroup = items.filter((item) => item.group === group);
        if (inGroup.length === 0) return null;
        return (
          <Command.Group key={group} heading={group} className="palette-group">
            {inGroup.map((item) => (
              <Command.Item
                key={item.value}
                value={item.value}
                onSelect={item.onSelect}
                className="palette-item"
              >
                {item.content}
              </Command.Item>
            ))}
          </Command.Group>
        );
      })}
    </Command.List>
  );
}

function PaletteBody({ onClose }: { onClose: () => void }) {
  const { me } = appRoute.useRouteContext();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [text, setText] = useState('');
  const typed = searchText(text);
  const settled = useDebounced(typed, TYPING_PAUSE_MS);
  const results = useResults(settled);
  const myTeams = useQuery({ ...myTeamsQuery(me.id), enabled: typed === '' });

  const go = (href: string) => {
    onClose();
    void navigate({ href });
  };
  // With nothing typed, the teams are the person's own: the quickest way to one of them.
  const teams = typed === '' ? (myTeams.data ?? []) : results.teams;
  const commands = paletteCommands(pathname).filter((command) =>
    matchesWords(`${command.label} ${command.keywords}`, typed),
  );
  const items: Item[] = [
    ...resultItems({ ...results, teams }, go),
    ...commands.map(
      (command): Item => ({
        value: `command:${command.id}`,
        group: 'Commands',
        content: <Row icon={<CornerDownLeft {...ICON} />} name={command.label} />,
        onSelect: () => {
          onClose();
          command.run((href) => void navigate({ href }));
        },
      }),
    ),
  ];

  // The first result is the highlighted one whenever the results change (not a command that happened
  // to be first while the search was on its way), so Enter opens what the person sees at the top.
  const [selected, setSelected] = useState('');
  const signature = items.map((item) => item.value).join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the set of results changes.
  useEffect(() => setSelected(items[0]?.value ?? ''), [signature]);

  const status = statusText(typed, typed !== settled || results.pending, items.length);

  return (
    <Command
      label="Search Cairn or run a command"
      shouldFilter={false}
      loop
      value={selected}
      onValueChange={setSelected}
    >
      <Command.Input
        className="palette-input"
        data-autofocus
        value={text}
        onValueChange={setText}
        maxLength={200}
        placeholder="Search tasks, projects, documents and teams, or run a command"
      />
      <p className="palette-status muted small" role="status">
        {status}
      </p>
      {results.error ? <ErrorNotice error={results.error} /> : null}
      <Groups items={items} />
      <p className="palette-hint muted small" aria-hidden="true">
        ↑ ↓ to move · Enter to open · Esc to close
      </p>
    </Command>
  );
}
