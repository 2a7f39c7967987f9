// The palette's commands (create a task, go to My work or the search page, switch the theme). The
// palette matches typed words to their names and keywords by the API's rule (lib/search-words.ts), so
// commands and search results answer the same text alike.
import { requestCreateTask } from '../../lib/commands.ts';
import { applyTheme, shownTheme, storedTheme } from '../../lib/theme.ts';

export interface PaletteCommand {
  id: string;
  label: string;
  /** More words that find it (`theme`, `new`). */
  keywords: string;
  run: (go: (href: string) => void) => void;
}

/** The team of the page the person is on (`/teams/ENG/…`), preset in a new task. */
export function teamKeyOf(pathname: string): string | undefined {
  return /^\/teams\/([^/]+)\//.exec(pathname)?.[1];
}

/** The commands, as they stand now (the theme command offers the other theme). */
export function paletteCommands(pathname: string): PaletteCommand[] {
  const choice = storedTheme();
  const other = shownTheme(choice) === 'dark' ? 'light' : 'dark';
  const teamKey = teamKeyOf(pathname);
  const commands: PaletteCommand[] = [
    {
      id: 'create-task',
      label: 'Create a task',
      keywords: 'new add task C',
      run: () => requestCreateTask(teamKey ? { teamKey } : {}),
    },
    { id: 'my-work', label: 'Go to My work', keywords: 'assigned home inbox', run: (go) => go('/') },
    { id: 'search', label: 'Open the search page', keywords: 'find all results', run: (go) => go('/search') },
    {
      id: 'theme',
      label: `Switch to the ${other} theme`,
      keywords: 'switch theme dark light appearance colour color mode',
      run: () => applyTheme(other),
    },
  ];
  if (choice !== 'system') {
    commands.push({
      id: 'theme-system',
      label: 'Follow the system theme',
      keywords: 'switch theme dark light appearance colour color mode auto',
      run: () => applyTheme('system'),
    });
  }
  return commands;
}
