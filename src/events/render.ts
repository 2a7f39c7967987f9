// An event's `data`: the thing it is about, as GET with expand=all returns it to the given reader (a
// webhook subscription's creator, or the caller of the feed), at the time of reading. Each kind of the
// registry (modules/registry.ts) loads the page's entities of its kind in bulk through its module's
// `loadVisible`, which leaves out what the reader may not see, and presents them in one call: a few
// queries per kind on the page, never one per event.
import type { Context } from '../context.ts';
import { RESOURCES } from '../modules/registry.ts';

export interface EntityRef {
  entity_type: string;
  entity_id: string;
}

export function entityKey(e: EntityRef): string {
  return `${e.entity_type}:${e.entity_id}`;
}

/** The distinct entity ids of `refs`, by entity type. */
function idsByType(refs: EntityRef[]): Map<string, string[]> {
  const ids = new Map<string, Set<string>>();
  for (const r of refs) {
    const set = ids.get(r.entity_type) ?? new Set<string>();
    ids.set(r.entity_type, set);
    set.add(r.entity_id);
  }
  return new Map([...ids].map(([type, set]) => [type, [...set]]));
}

/** What each entity of `refs` reads as to `ctx`, by entityKey; the ones it cannot see are missing. */
export async function renderEntities(
  ctx: Context,
  refs: EntityRef[],
  publicUrl: string,
): Promise<Map<string, unknown>> {
  const ids = idsByType(refs);
  const out = new Map<string, unknown>();
  await Promise.all(
    RESOURCES.map(async ({ kind, eventData }) => {
      const wanted = ids.get(kind);
      if (!eventData || !wanted) return;
      const rows = await eventData.loadVisible(ctx, wanted);
      if (rows.length === 0) return;
      const presented = await eventData.present(ctx, rows, publicUrl);
      for (const item of presented) out.set(entityKey({ entity_type: kind, entity_id: item.id }), item);
    }),
  );
  return out;
}
