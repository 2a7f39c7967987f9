// Light and dark themes: the CSS follows the system (prefers-color-scheme) unless the person chose one,
// which is kept in localStorage (a preference, not a secret) and set as <html data-theme>.

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'cairn.theme';

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused (a private window's quota): the choice lasts for this page only.
  }
}
