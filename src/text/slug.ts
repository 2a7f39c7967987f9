// Slugs (projects, documents): a name's folded ASCII words joined by dashes, unique in the workspace.
import { words } from '../db/search/fold.ts';

/**
 * The slug for `name`, given the taken slugs that start with its stem (`takenFrom(stem)`). A rename
 * whose name keeps the same stem keeps `current`, and so the item's links.
 */
export async function slugFor(
  name: string,
  fallback: string,
  takenFrom: (stem: string) => Promise<Set<string>>,
  current?: string,
): Promise<string> {
  const stem = slugStem(name, fallback);
  if (current !== undefined && (current === stem || new RegExp(`^${stem}-\\d+$`).test(current)))
    return current;
  const taken = await takenFrom(stem);
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

/** A name's folded ASCII words joined by dashes, up to 60 characters (`fallback` when none is left). */
export function slugStem(name: string, fallback: string): string {
  return (
    words(name)
      .map((w) => w.replace(/[^a-z0-9]/g, ''))
      .filter(Boolean)
      .join('-')
      .slice(0, 60)
      .replace(/-+$/, '') || fallback
  );
}
