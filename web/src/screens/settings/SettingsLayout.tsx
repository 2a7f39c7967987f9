// Settings: a navigation of its screens (the owners' ones only for owners) beside the screen chosen.
// Below 720 px the navigation is a row of links above the screen.
import { Link, Outlet } from '@tanstack/react-router';
import { useTitle } from '../../components/useTitle.ts';
import { useMe } from './parts.tsx';

const PERSONAL = [
  { to: '/settings/profile', text: 'Profile' },
  { to: '/settings/password', text: 'Password' },
  { to: '/settings/sessions', text: 'Sessions' },
  { to: '/settings/tokens', text: 'API tokens' },
] as const;

const WORKSPACE = [
  { to: '/settings/members', text: 'Members' },
  { to: '/settings/invitations', text: 'Invitations' },
  { to: '/settings/teams', text: 'Teams and areas' },
  { to: '/settings/webhooks', text: 'Webhooks' },
] as const;

export function SettingsLayout() {
  const me = useMe();
  useTitle('Settings');
  return (
    <div className="page settings">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-body">
        <nav className="settings-nav" aria-label="Settings">
          <h2 className="nav-heading">You</h2>
          <ul className="nav-list">
            {PERSONAL.map((item) => (
              <li key={item.to}>
                <Link to={item.to} className="nav-link">
                  {item.text}
                </Link>
              </li>
            ))}
          </ul>
          {me.role === 'owner' ? (
            <>
              <h2 className="nav-heading">Workspace</h2>
              <ul className="nav-list">
                {WORKSPACE.map((item) => (
                  <li key={item.to}>
                    <Link to={item.to} className="nav-link">
                      {item.text}
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </nav>
        <div className="settings-content">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
