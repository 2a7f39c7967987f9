// Templates follow their area's visibility (docs/decisions.md §2): whoever sees the area sees its templates,
// and may make tasks from them; everyone but guests may also create and change them.
import type { Actor } from '../../context.ts';
import { seesGroup } from '../../db/listing.ts';

export function canSeeTemplate(
  areaId: string,
  visibleGroups: { all: boolean; visible: Set<string> },
): boolean {
  return seesGroup(visibleGroups, areaId);
}

export function canChangeTemplates(actor: Pick<Actor, 'role'>): boolean {
  return actor.role !== 'guest';
}
