// What the live stream knows of the things a batch of events is about: for each, the groups it belongs
// to, its project, and who may see it. Loaded once per batch for every stream of the workspace, through
// each kind's own bulk loader (the one the feed renders with: registry eventData.loadVisible) called by
// a reader that sees everything, then checked per stream with the modules' own policies (canSeeTask,
// canSeeProject, …) against that stream's viewer (viewers.ts): no query per stream.
//
// A post is seen by whoever sees its task, project or document (posts/entities.ts): its facts are its
// entity's, loaded in a second step for the entities the batch has no event about.
import { randomUUID } from 'node:crypto';
import { type Context, readContext, type WorkspaceRef } from '../context.ts';
import type { Database } from '../db/index.ts';
import { seesGroup } from '../db/listing.ts';
import { canSeeDocument } from '../modules/documents/policy.ts';
import { loadVisibleDocuments } from '../modules/documents/service.ts';
import { documentFacts } from '../modules/documents/visibility.ts';
import { loadVisibleGroups } from '../modules/groups/service.ts';
import { loadVisiblePosts } from '../modules/posts/service.ts';
import { loadVisibleProjectTemplates } from '../modules/project-templates/service.ts';
import { canSeeProject } from '../modules/projects/policy.ts';
import { loadVisibleProjects } from '../modules/projects/service.ts';
import type { Kind } from '../modules/registry.ts';
import { canSeeTemplate } from '../modules/task-templates/policy.ts';
import { loadVisibleTaskTemplates } from '../modules/task-templates/service.ts';
import { canSeeTask } from '../modules/tasks/policy.ts';
import { loadVisibleTasks } from '../modules/tasks/service.ts';
import { taskFacts } from '../modules/tasks/visibility.ts';
import { type EntityRef, entityKey } from './render.ts';
import type { Viewer } from './viewers.ts';

export interface Facts {
  /** The groups (teams or areas) it belongs to: a project's, in their order; one for the others. */
  groupIds: string[];
  projectId: string | null;
  sees(viewer: Viewer): boolean;
}

type Loader = (ctx: Context, ids: string[]) => Promise<[string, Facts][]>;

const group =
  (kind: 'team' | 'area'): Loader =>
  async (ctx, ids) =>
    (await loadVisibleGroups(ctx, kind, ids)).map((row) => [
      row.id,
      { groupIds: [row.id], projectId: null, sees: (v) => seesGroup(v.groups, row.id) },
    ]);

/**
 * Each kind's facts from its loader's rows, with its module's policy. A kind of the registry needs an
 * entry (null: no events are about it), so a new kind fails the typecheck until it has one. Posts are
 * handled by factsOf itself (their entity's facts).
 */
const LOADERS: Record<Exclude<Kind, 'post'>, Loader | null> = {
  task: async (ctx, ids) =>
    (await loadVisibleTasks(ctx, ids)).map((row) => [
      row.id,
      {
        groupIds: [row.group_id],
        projectId: row.project_id,
        sees: (v) => canSeeTask(v, taskFacts(row), v.groups),
      },
    ]),
  project: async (ctx, ids) =>
    (await loadVisibleProjects(ctx, ids)).map(({ row, teamIds }) => [
      row.id,
      { groupIds: teamIds, projectId: row.id, sees: (v) => canSeeProject(teamIds, v.groups) },
    ]),
  document: async (ctx, ids) =>
    (await loadVisibleDocuments(ctx, ids)).map((row) => [
      row.id,
      {
        groupIds: [row.group_id],
        projectId: null,
        sees: (v) => canSeeDocument(v, documentFacts(row), v.groups),
      },
    ]),
  team: group('team'),
  area: group('area'),
  task_template: async (ctx, ids) =>
    (await loadVisibleTaskTemplates(ctx, ids)).map((row) => [
      row.id,
      {
        groupIds: [row.group_id],
        projectId: row.project_id,
        sees: (v) => canSeeTemplate(row.group_id, v.groups),
      },
    ]),
  project_template: async (ctx, ids) =>
    (await loadVisibleProjectTemplates(ctx, ids)).map(({ row }) => [
      row.id,
      {
        groupIds: [row.owned_by_area_id],
        projectId: null,
        sees: (v) => canSeeTemplate(row.owned_by_area_id, v.groups),
      },
    ]),
  user: null,
};

/**
 * A reader of the workspace that sees everything (the role of an owner): the loaders leave nothing
 * out for it, and the streams' own viewers decide. It reads only; a new actor object each time, so
 * the per-request memos it fills (context.ts perRequest) go with it.
 */
function readerOfAll(database: Database, workspace: WorkspaceRef): Context {
  const actor = { id: randomUUID(), name: 'live stream', email: '', role: 'owner' as const, tokenId: '' };
  return readContext(database, { actor, workspace });
}

/** The entities of `refs` by kind, distinct. */
function byKind(refs: EntityRef[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of refs) {
    const set = out.get(r.entity_type) ?? new Set<string>();
    out.set(r.entity_type, set);
    set.add(r.entity_id);
  }
  return out;
}

async function loadKinds(ctx: Context, refs: EntityRef[], into: Map<string, Facts>): Promise<void> {
  await Promise.all(
    [...byKind(refs)].map(async ([kind, ids]) => {
      const load = LOADERS[kind as keyof typeof LOADERS];
      if (!load) return;
      for (const [id, facts] of await load(ctx, [...ids]))
        into.set(entityKey({ entity_type: kind, entity_id: id }), facts);
    }),
  );
}

/** The facts of each thing of `refs` that exists, by entityKey (render.ts); a missing one is left out. */
export async function factsOf(
  database: Database,
  workspace: WorkspaceRef,
  refs: EntityRef[],
): Promise<Map<string, Facts>> {
  const ctx = readerOfAll(database, workspace);
  const found = new Map<string, Facts>();
  const postIds = [...new Set(refs.filter((r) => r.entity_type === 'post').map((r) => r.entity_id))];
  const [posts] = await Promise.all([
    postIds.length > 0 ? loadVisiblePosts(ctx, postIds) : Promise.resolve([]),
    loadKinds(ctx, refs, found),
  ]);
  const on = (p: (typeof posts)[number]) => ({ entity_type: p.row.entity_type, entity_id: p.row.entity_id });
  await loadKinds(
    ctx,
    posts.map(on).filter((e) => !found.has(entityKey(e))),
    found,
  );
  for (const post of posts) {
    const facts = found.get(entityKey(on(post)));
    if (facts) found.set(entityKey({ entity_type: 'post', entity_id: post.row.id }), facts);
  }
  return found;
}
