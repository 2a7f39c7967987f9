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
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: choice }));
}

/** The theme on screen: the choice, or the system's when the choice is to follow it. */
export function shownTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Listen for applyTheme from anywhere (the palette switches it; the sidebar's select shows it). */
export function onThemeChange(listener: (choice: ThemeChoice) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<ThemeChoice>).detail);
  window.addEventListener(CHANGED, handle);
  return () => window.removeEventListener(CHANGED, handle);
}

const CHANGED = 'cairn:theme';
