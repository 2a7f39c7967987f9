// `cairn seed --tasks N`: fills a workspace with people, teams, projects and N tasks for demos and the
// benchmark. Everything comes from a fixed vocabulary and a fixed random seed, so two runs make the
// same names in the same order. Users, teams and projects go through their services like any
// request; tasks go through the tasks module's bulk insert, many per statement.
import { type Auth, type Context, inTransaction as runInTransaction } from '../context.ts';
import type { Database } from '../db/index.ts';
import type { TaskStage } from '../db/types.ts';
import { type GeneratedDocument, insertGeneratedDocuments } from '../modules/documents/bulk.ts';
import * as groupLookup from '../modules/groups/lookup.ts';
import * as groups from '../modules/groups/service.ts';
import { insertGeneratedPosts } from '../modules/posts/bulk.ts';
import * as projects from '../modules/projects/service.ts';
import { type GeneratedTask, insertGenerated } from '../modules/tasks/bulk.ts';
import * as tasks from '../modules/tasks/service.ts';
import * as users from '../modules/users/service.ts';
import { FIRST_NAMES, LAST_NAMES, WORDS } from './vocabulary.ts';

/** mulberry32: small, fast, and the same sequence everywhere for a given seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks words with Zipf-like frequencies: a few very common, most rare, as in real titles. */
function zipf(rand: () => number, size: number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= size; r++) {
    sum += 1 / r;
    cumulative.push(sum);
  }
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface SeedOptions {
  tasks: number;
  seed?: number;
  /** Progress lines (stderr in the CLI). */
  progress?: (line: string) => void;
}

export interface SeedResult {
  workspaceId: string;
  users: number;
  teams: number;
  projects: number;
  tasks: number;
  documents: number;
  posts: number;
  seconds: number;
}

const STAGES: [TaskStage, number][] = [
  ['backlog', 0.15],
  ['unstarted', 0.25],
  ['started', 0.2],
  ['completed', 0.35],
  ['canceled', 0.05],
];
const TASKS_PER_TRANSACTION = 20_000;
const DAY = 86_400_000;

/** What every step of a seeding shares: the one random sequence, in the order the steps draw from it. */
interface Seeding {
  rand: () => number;
  pick: <T>(list: readonly T[]) => T;
  phrase: (min: number, max: number) => string;
  inTransaction: <T>(fn: (ctx: Context) => Promise<T>) => Promise<T>;
  say: (line: string) => void;
}

interface SeededTeam {
  id: string;
  statuses: Map<TaskStage, string>;
}

export async function seed(database: Database, ctxBase: Auth, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const rand = random(options.seed ?? 20261121);
  const word = zipf(rand, WORDS.length);
  const s: Seeding = {
    rand,
    pick: (list) => list[Math.floor(rand() * list.length)]!,
    phrase: (min, max) =>
      Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => WORDS[word()]).join(' '),
    inTransaction: (fn) => runInTransaction(database, ctxBase, fn),
    say: options.progress ?? (() => {}),
  };

  const n = options.tasks;
  const people = await seedUsers(s, 10 + Math.floor(n / 5_000));
  const teams = await seedTeams(s, people, 5 + Math.floor(n / 50_000));
  const projectTeams = await seedProjects(s, people, teams, 3 + Math.floor(n / 200));
  // Tasks, documents and posts are dated over the year up to now.
  const base = Date.now() - 365 * DAY;
  await seedTasks(s, { people, teams, projectTeams, n, base, started });
  const documentCount = await seedDocuments(s, people, teams, n, base);
  const posts = await seedPosts(s, people, n, base);

  return {
    workspaceId: ctxBase.workspace.id,
    users: people.length,
    teams: teams.length,
    projects: projectTeams.length,
    tasks: n,
    documents: documentCount,
    posts,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

async function seedUsers({ pick, inTransaction, say }: Seeding, userCount: number): Promise<string[]> {
  const people = await inTransaction(async (ctx) => {
    const made: string[] = [];
    for (let i = 0; i < userCount; i++) {
      const name = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
      const user = await users.insertUser(ctx.db, ctx.search, ctx.workspace.id, {
        name,
        email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${i}@seed.example`,
        role: i % 25 === 0 ? 'admin' : 'member',
      });
      made.push(user.id);
    }
    return made;
  });
  say(`users: ${people.length}`);
  return people;
}

async function seedTeams(
  { phrase, inTransaction, say }: Seeding,
  people: string[],
  teamCount: number,
): Promise<SeededTeam[]> {
  const teams = await inTransaction(async (ctx) => {
    const made: SeededTeam[] = [];
    for (let i = 0; i < teamCount; i++) {
      const members = people.filter((_, j) => j % teamCount === i).map((id) => ({ id }));
      const { row } = await groups.upsertGroup(ctx, 'team', {
        name: `${phrase(1, 2)} ${i}`.replace(/^\w/, (c) => c.toUpperCase()),
        publicId: `T${i}`,
        privacy: i % 10 === 9 ? 'private' : 'workspace',
        members,
      });
      const statuses = await groupLookup.statusesOfGroup(ctx, row.id);
      made.push({ id: row.id, statuses: new Map(statuses.map((s) => [s.stage, s.id])) });
    }
    return made;
  });
  say(`teams: ${teams.length}`);
  return teams;
}

/** Projects, 500 a transaction; each with the index of its team. */
async function seedProjects(
  { pick, phrase, inTransaction, say }: Seeding,
  people: string[],
  teams: SeededTeam[],
  projectCount: number,
): Promise<{ id: string; team: number }[]> {
  const projectTeams: { id: string; team: number }[] = [];
  for (let start = 0; start < projectCount; start += 500) {
    await inTransaction(async (ctx) => {
      for (let i = start; i < Math.min(projectCount, start + 500); i++) {
        const team = i % teams.length;
        const { project } = await projects.upsertProject(ctx, {
          name: `${phrase(2, 4)} ${i}`,
          teamId: teams[team]!.id,
          ownerId: pick(people),
          description: phrase(8, 20),
        });
        projectTeams.push({ id: project.row.id, team });
      }
    });
  }
  say(`projects: ${projectTeams.length}`);
  return projectTeams;
}

/** A task stage, drawn with the STAGES frequencies. */
function stageOf(rand: () => number): TaskStage {
  const x = rand();
  let below = 0;
  for (const [s, p] of STAGES) {
    below += p;
    if (x < below) return s;
  }
  return 'backlog';
}

async function seedTasks(
  s: Seeding,
  {
    people,
    teams,
    projectTeams,
    n,
    base,
    started,
  }: {
    people: string[];
    teams: SeededTeam[];
    projectTeams: { id: string; team: number }[];
    n: number;
    base: number;
    started: number;
  },
): Promise<void> {
  const { rand, pick, phrase } = s;
  const projectRank = zipf(rand, projectTeams.length);
  const step = (365 * DAY) / Math.max(n, 1);
  for (let start = 0; start < n; start += TASKS_PER_TRANSACTION) {
    const batch: GeneratedTask[] = [];
    for (let i = start; i < Math.min(n, start + TASKS_PER_TRANSACTION); i++) {
      // Project sizes are skewed as in real workspaces: a few big projects (the largest about 4 % of
      // all tasks, the second 2 %), a long tail of small ones. The bench lists the big ones.
      const inProject = rand() < 0.4;
      const project = inProject ? projectTeams[projectRank()] : undefined;
      const team = teams[project ? project.team : Math.floor(rand() * teams.length)]!;
      const stage = stageOf(rand);
      const text = phrase(10, 30);
      batch.push({
        name: phrase(3, 7).replace(/^\w/, (c) => c.toUpperCase()),
        descriptionHtml: `<p>${text}</p>`,
        descriptionMarkdown: text,
        groupId: team.id,
        statusId: team.statuses.get(stage)!,
        completed: stage === 'completed',
        projectId: project?.id ?? null,
        assignedToId: rand() < 0.6 ? pick(people) : null,
        createdById: pick(people),
        visibility: rand() < 0.03 ? 'private' : 'workspace',
        priority: rand() < 0.1,
        dueDate: rand() < 0.3 ? new Date(base + i * step + 14 * DAY).toISOString() : null,
        labelIds: [],
        at: new Date(base + i * step).toISOString(),
        deleted: rand() < 0.02,
      });
    }
    await s.inTransaction((ctx) => insertGenerated(ctx, batch));
    s.say(
      `tasks: ${Math.min(n, start + TASKS_PER_TRANSACTION)} / ${n} (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
}

/** Documents: one for every ten tasks, in the same teams, numbered so that names and slugs are unique. */
async function seedDocuments(
  { rand, pick, phrase, inTransaction, say }: Seeding,
  people: string[],
  teams: SeededTeam[],
  n: number,
  base: number,
): Promise<number> {
  const documentCount = Math.floor(n / 10);
  for (let start = 0; start < documentCount; start += TASKS_PER_TRANSACTION) {
    const docs: GeneratedDocument[] = [];
    for (let i = start; i < Math.min(documentCount, start + TASKS_PER_TRANSACTION); i++) {
      const text = phrase(20, 60);
      docs.push({
        name: `${phrase(2, 5)} ${i}`.replace(/^\w/, (c) => c.toUpperCase()),
        descriptionHtml: `<p>${text}</p>`,
        descriptionMarkdown: text,
        groupId: teams[Math.floor(rand() * teams.length)]!.id,
        createdById: pick(people),
        visibility: rand() < 0.03 ? 'private' : 'workspace',
        at: new Date(base + (i * 365 * DAY) / Math.max(documentCount, 1)).toISOString(),
      });
    }
    await inTransaction((ctx) => insertGeneratedDocuments(ctx, docs));
    say(`documents: ${Math.min(documentCount, start + TASKS_PER_TRANSACTION)} / ${documentCount}`);
  }
  return documentCount;
}

/**
 * A busy thread: the first task gets a post for every thousand tasks (1,000 for a million), and every
 * tenth post two replies. How many posts it made.
 */
async function seedPosts(
  { pick, phrase, inTransaction, say }: Seeding,
  people: string[],
  n: number,
  base: number,
): Promise<number> {
  if (n === 0) return 0;
  const postCount = Math.ceil(n / 1000);
  const posts = await inTransaction(async (ctx) => {
    const first = await tasks.loadVisibleTask(ctx, '1');
    const thread: { content: string; ownerId: string; at: string; replyTo?: number }[] = [];
    for (let i = 0; i < postCount; i++) {
      const at = new Date(base + i * 60_000).toISOString();
      const top = thread.length;
      thread.push({ content: phrase(5, 40), ownerId: pick(people), at });
      if (i % 10 === 0)
        for (let r = 0; r < 2; r++)
          thread.push({ content: phrase(3, 15), ownerId: pick(people), at, replyTo: top });
    }
    await insertGeneratedPosts(ctx, { type: 'task', id: first.id }, thread);
    return thread.length;
  });
  say(`posts: ${posts} on task 1`);
  return posts;
}
