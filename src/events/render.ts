// An event's `data`: the thing it is about, as GET with expand=all returns it to the given reader (a
// webhook subscription's creator, or the caller of the feed), at the time of reading. Each entity is
// loaded through its own module's service, so what a reader may not see is simply absent. Tasks are
// loaded in bulk; projects, documents, teams, areas, posts and templates are loaded one id at a time (in
// parallel), then presented in bulk, one call per kind, except posts, which are presented one by one.
import type { Context } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { presentDocuments } from '../modules/documents/present.ts';
import { DOCUMENT_EXPANSIONS } from '../modules/documents/schema.ts';
import * as documents from '../modules/documents/service.ts';
import { presentGroups } from '../modules/groups/present.ts';
import { GROUP_EXPANSIONS } from '../modules/groups/schema.ts';
import * as groups from '../modules/groups/service.ts';
import { presentPosts } from '../modules/posts/present.ts';
import { POST_EXPANSIONS } from '../modules/posts/schema.ts';
import * as posts from '../modules/posts/service.ts';
import { presentProjectTemplates } from '../modules/project-templates/present.ts';
import * as projectTemplates from '../modules/project-templates/service.ts';
import { presentProjects } from '../modules/projects/present.ts';
import { PROJECT_EXPANSIONS } from '../modules/projects/schema.ts';
import * as projects from '../modules/projects/service.ts';
import { presentTaskTemplates } from '../modules/task-templates/present.ts';
import * as taskTemplates from '../modules/task-templates/service.ts';
import { presentTasks } from '../modules/tasks/present.ts';
import { TASK_EXPANSIONS } from '../modules/tasks/schema.ts';
import * as tasks from '../modules/tasks/service.ts';

export interface EntityRef {
  entity_type: string;
  entity_id: string;
}

export function entityKey(e: EntityRef): string {
  return `${e.entity_type}:${e.entity_id}`;
}

/** null when the reader cannot see it (or it is gone); other errors propagate. */
async function visible<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return null;
    throw error;
  }
}

function loaded<T>(items: (T | null)[]): T[] {
  return items.filter((x): x is T => x !== null);
}

/** What each entity of `refs` reads as to `ctx`, by entityKey; the ones it cannot see are missing. */
export async function renderEntities(
  ctx: Context,
  refs: EntityRef[],
  publicUrl: string,
): Promise<Map<string, unknown>> {
  const ids = new Map<string, Set<string>>();
  for (const r of refs) {
    const set = ids.get(r.entity_type) ?? new Set<string>();
    ids.set(r.entity_type, set);
    set.add(r.entity_id);
  }
  const out = new Map<string, unknown>();
  const put = (type: string, items: { id: string }[]) => {
    for (const item of items) out.set(`${type}:${item.id}`, item);
  };
  const of = (type: string) => [...(ids.get(type) ?? [])];
  const all = { includeMarkdown: false };

  await Promise.all([
    (async () => {
      const rows = of('task').length ? await tasks.loadVisibleTasks(ctx, of('task')) : [];
      if (rows.length)
        put('task', await presentTasks(ctx, rows, { ...all, expand: new Set(TASK_EXPANSIONS) }));
    })(),
    (async () => {
      const rows = loaded(
        await Promise.all(of('project').map((id) => visible(projects.loadVisibleProject(ctx, id)))),
      );
      if (rows.length) {
        put('project', await presentProjects(ctx, rows, { ...all, expand: new Set(PROJECT_EXPANSIONS) }));
      }
    })(),
    (async () => {
      const rows = loaded(
        await Promise.all(of('document').map((id) => visible(documents.loadVisibleDocument(ctx, id)))),
      );
      if (rows.length) {
        put('document', await presentDocuments(ctx, rows, { ...all, expand: new Set(DOCUMENT_EXPANSIONS) }));
      }
    })(),
    ...(['team', 'area'] as const).map(async (kind) => {
      const rows = loaded(
        await Promise.all(of(kind).map((id) => visible(groups.loadVisibleGroup(ctx, kind, id)))),
      );
      if (rows.length) {
        put(
          kind,
          await presentGroups(
            ctx,
            rows.map((g) => g.row),
            new Set(GROUP_EXPANSIONS),
          ),
        );
      }
    }),
    (async () => {
      // A post is presented with its entity, so one call per post (a page rarely holds many).
      const found = loaded(
        await Promise.all(of('post').map((id) => visible(posts.loadVisiblePost(ctx, id)))),
      );
      for (const { row, entity } of found) {
        put('post', await presentPosts(ctx, entity, [row], new Set(POST_EXPANSIONS), publicUrl));
      }
    })(),
    (async () => {
      const rows = loaded(
        await Promise.all(
          of('task_template').map((id) => visible(taskTemplates.loadVisibleTaskTemplate(ctx, id))),
        ),
      );
      if (rows.length) put('task_template', await presentTaskTemplates(ctx, rows));
    })(),
    (async () => {
      const rows = loaded(
        await Promise.all(
          of('project_template').map((id) => visible(projectTemplates.loadTemplate(ctx, id))),
        ),
      );
      if (rows.length) put('project_template', await presentProjectTemplates(ctx, rows));
    })(),
  ]);
  return out;
}
