// The signed-in layout: the sidebar (workspace, My work, Search, the person's teams with their views,
// Settings, the person with theme and sign-out) and the main column. Below 720 px the sidebar is a
// panel opened by the menu button; above, it can be hidden to give the list the whole width.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import {
  FileText,
  FolderKanban,
  Inbox,
  KanbanSquare,
  ListTodo,
  LogOut,
  PanelLeft,
  Search,
  Settings,
} from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { myTeamsQuery, signOut } from '../api/index.ts';
import { applyTheme, onThemeChange, storedTheme, type ThemeChoice } from '../lib/theme.ts';
import { LiveConnection } from '../live/LiveConnection.tsx';
import { GlobalKeys } from '../screens/palette/Shortcuts.tsx';
import { CreateTaskHost } from '../screens/task/CreateTaskHost.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';

const appRoute = getRouteApi('/app');
const NARROW = '(max-width: 719px)';

function ThemeSelect() {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  const id = useId();
  // The palette switches the theme too: show what is in force.
  useEffect(() => onThemeChange(setChoice), []);
  return (
    <div className="theme-select">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        value={choice}
        onChange={(event) => {
          const next = event.target.value as ThemeChoice;
          setChoice(next);
          applyTheme(next);
        }}
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </div>
  );
}

function TeamsNav({ userId }: { userId: string }) {
  const teams = useQuery(myTeamsQuery(userId));
  if (teams.isPending) return <p className="muted small nav-note">Loading teams…</p>;
  if (teams.isError) return <ErrorNotice error={teams.error} />;
  if (teams.data.length === 0) return <p className="muted small nav-note">You are in no team yet.</p>;
  return (
    <ul className="nav-list">
      {teams.data.map((team) => {
        const params = { teamKey: team.publicId };
        return (
          <li key={team.id}>
            <details open>
              <summary>
                <span className="team-code" aria-hidden="true">
                  {team.publicId}
                </span>
                {team.name}
              </summary>
              <ul className="nav-list nav-sub">
                <li>
                  <Link to="/teams/$teamKey/tasks" params={params} className="nav-link">
                    <ListTodo size={16} aria-hidden="true" /> Tasks
                  </Link>
                </li>
                <li>
                  <Link to="/teams/$teamKey/board" params={params} className="nav-link">
                    <KanbanSquare size={16} aria-hidden="true" /> Board
                  </Link>
                </li>
                <li>
                  <Link to="/teams/$teamKey/projects" params={params} className="nav-link">
                    <FolderKanban size={16} aria-hidden="true" /> Projects
                  </Link>
                </li>
                <li>
                  <Link to="/teams/$teamKey/documents" params={params} className="nav-link">
                    <FileText size={16} aria-hidden="true" /> Documents
                  </Link>
                </li>
              </ul>
            </details>
          </li>
        );
      })}
    </ul>
  );
}

export function Shell() {
  const { me } = appRoute.useRouteContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [navOpen, setNavOpen] = useState(() => !window.matchMedia(NARROW).matches);
  const [signOutError, setSignOutError] = useState<unknown>(null);

  // On a narrow screen the sidebar is a panel over the page: choosing a place closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of place.
  useEffect(() => {
    if (window.matchMedia(NARROW).matches) setNavOpen(false);
  }, [location.pathname]);

  async function onSignOut() {
    try {
      await signOut();
      queryClient.clear();
      await navigate({ to: '/sign-in' });
    } catch (error) {
      setSignOutError(error);
    }
  }

  return (
    <div className="shell" data-nav={navOpen ? 'open' : 'closed'}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <nav id="sidebar" className="sidebar" aria-label="Main">
        <div className="workspace-name">{me.workspace.name}</div>
        <ul className="nav-list">
          <li>
            <Link to="/" className="nav-link" activeOptions={{ exact: true }}>
              <Inbox size={16} aria-hidden="true" /> My work
            </Link>
          </li>
          <li>
            <Link to="/search" className="nav-link">
              <Search size={16} aria-hidden="true" /> Search
            </Link>
          </li>
        </ul>
        <h2 className="nav-heading">Teams</h2>
        <TeamsNav userId={me.id} />
        <div className="sidebar-foot">
          <Link to="/settings" className="nav-link">
            <Settings size={16} aria-hidden="true" /> Settings
          </Link>
          <div className="person">
            <span className="person-name">{me.name}</span>
            <ThemeSelect />
            <button type="button" className="button button-quiet" onClick={onSignOut}>
              <LogOut size={16} aria-hidden="true" /> Sign out
            </button>
            {signOutError ? <ErrorNotice error={signOutError} /> : null}
          </div>
        </div>
      </nav>
      <div className="main-column">
        <div className="topbar">
          <button
            type="button"
            className="icon-button"
            aria-expanded={navOpen}
            aria-controls="sidebar"
            aria-label={navOpen ? 'Hide the sidebar' : 'Show the sidebar'}
            onClick={() => setNavOpen((open) => !open)}
          >
            <PanelLeft size={18} aria-hidden="true" />
          </button>
          <span className="topbar-workspace">{me.workspace.name}</span>
        </div>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
        <LiveConnection />
      </div>
      <GlobalKeys />
      <CreateTaskHost />
    </div>
  );
}
