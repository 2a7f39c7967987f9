// The seeded workspace of the bench (run.ts): seeded once per database and kept (SQLite's in .bench/,
// PostgreSQL's as a template database copied with CREATE DATABASE … TEMPLATE), a fresh copy for
// each run, and the cases built from what it holds.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type Case, cli, databaseUrl, log, PG_ADMIN_URL, root, rotating } from './lib.ts';

export const TASKS = Number(process.env.BENCH_TASKS ?? 1_000_000);
// Bumped whenever `cairn seed` makes different data, so an old seeded copy is not reused.
// 3: a task's tsvectors written with its INSERT (no dead row versions on PostgreSQL).
// 4: documents (one per ten tasks) and a busy thread of posts on task 1.
const SEED_VERSION = 4;
const dir = join(root, '.bench');

/** Migrates, makes the bench workspace and seeds it; returns the owner's token. */
function seedInto(databaseUrl: string): string {
  log(`seeding ${TASKS} tasks …`);
  cli(['migrate'], databaseUrl);
  const made = cli(
    [
      'workspace',
      'create',
      '--name',
      'Bench',
      '--owner-name',
      'Bench Owner',
      '--owner-email',
      'bench@example.com',
    ],
    databaseUrl,
    'pipe',
  );
  cli(['seed', '--tasks', String(TASKS)], databaseUrl);
  return JSON.parse(made).token;
}

export interface Prepared {
  databaseUrl: string;
  token: string;
  cleanup(): Promise<void>;
}

/** SQLite: seeded once into .bench/, copied for each run (the create cases add tens of thousands of tasks). */
export async function prepareSqlite(copy = 'run'): Promise<Prepared> {
  const seeded = join(dir, `cairn-v${SEED_VERSION}-${TASKS}.seeded.db`);
  const run = join(dir, `cairn-v${SEED_VERSION}-${TASKS}.${copy}.db`);
  const tokenPath = `${seeded}.token`;
  if (!existsSync(seeded) || !existsSync(tokenPath)) {
    mkdirSync(dir, { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(seeded + suffix, { force: true });
    const token = seedInto(`file:${seeded}`);
    // Fold the WAL into the file so that a plain copy is the whole database.
    spawnSync(process.execPath, [
      '-e',
      `new (require('node:sqlite').DatabaseSync)(${JSON.stringify(seeded)}).exec('pragma wal_checkpoint(truncate)')`,
    ]);
    writeFileSync(tokenPath, token);
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(run + suffix, { force: true });
  copyFileSync(seeded, run);
  return {
    databaseUrl: `file:${run}`,
    token: readFileSync(tokenPath, 'utf8').trim(),
    cleanup: async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(run + suffix, { force: true });
    },
  };
}

/** PostgreSQL: seeded once into a template database, which each run copies. */
export async function preparePostgres(copy = 'run'): Promise<Prepared> {
  const template = `cairn_bench_v${SEED_VERSION}_${TASKS}`;
  const run = `${template}_${copy}`;
  const tokenPath = join(dir, `${template}.token`);
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const exists = async (name: string) =>
    (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!(await exists(template)) || !existsSync(tokenPath)) {
    mkdirSync(dir, { recursive: true });
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const setup = new pg.Client({ connectionString: databaseUrl(template) });
    await setup.connect();
    await setup.query('create extension if not exists btree_gin');
    await setup.end();
    const started = Date.now();
    const token = seedInto(databaseUrl(template));
    log(`seeded PostgreSQL in ${Math.round((Date.now() - started) / 1000)} s; vacuum analyze …`);
    await settle(databaseUrl(template));
    writeFileSync(tokenPath, token);
  }
  await admin.query(`drop database if exists ${run}`);
  await admin.query(`create database ${run} template ${template}`);
  return {
    databaseUrl: databaseUrl(run),
    token: readFileSync(tokenPath, 'utf8').trim(),
    cleanup: async () => {
      await admin.query(`drop database if exists ${run} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A PostgreSQL database vacuumed and analyzed: the template once seeded, and each copy once its server
 * has started. A server that migrated its copy at start may have rebuilt a table, which until
 * autovacuum comes by (within a minute or so on a running server) has no visibility map: every
 * index-only scan of it then reads the table too, and a run would measure that.
 */
export async function settle(url: string): Promise<void> {
  if (!url.startsWith('postgres')) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/**
 * The cases, built from what the seeded workspace holds. `cwd`: the checkout of the server at `url`,
 * whose CLI makes the member's token (another checkout's would migrate the copy to its own schema).
 */
export async function casesFor(url: string, token: string, databaseUrl: string, cwd = root): Promise<Case[]> {
  const api = async (path: string) => {
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const total = async (qs: string) =>
    (await api(`/v1/tasks/search?limit=1&expand=none&${qs}`)).total as number;
  const closest = async <T>(items: T[], count: (t: T) => Promise<number>, wanted: number) => {
    const counted = await Promise.all(items.map(async (item) => ({ item, n: await count(item) })));
    return counted.sort((a, b) => Math.abs(a.n - wanted) - Math.abs(b.n - wanted))[0]!;
  };
  const teams = (await api('/v1/teams/search?limit=100&expand=none')).data as { id: string }[];
  const team = await closest(teams, (t) => total(`teamId=${t.id}`), 40_000);
  const projects = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => api(`/v1/projects/${n}?expand=none`)));
  const project = await closest(projects as { id: string }[], (p) => total(`projectId=${p.id}`), 20_000);
  log(`list cases: a team of ${team.n} tasks, a project of ${project.n}`);
  // A member of that team (not an owner or admin): their totals are counted, not read from counters.
  const members = (await api(`/v1/teams/${team.item.id}?expand=members`)).members as { id: string }[];
  type Person = { id: string; email: string; role: string };
  let member: Person | undefined;
  for (let cursor = ''; !member; ) {
    const page = await api(`/v1/users?limit=100${cursor}`);
    member = (page.data as Person[]).find((u) => u.role === 'member' && members.some((m) => m.id === u.id));
    if (!page.hasMore && !member) throw new Error('the bench team has no member with the member role');
    cursor = `&cursor=${page.nextCursor}`;
  }
  const memberToken = JSON.parse(
    cli(['token', 'create', '--user', member.email], databaseUrl, 'pipe', cwd),
  ).token;
  // Task ids to read: one page of the walk.
  const sample = (await api('/v1/tasks/search?limit=100&expand=none')).data.map((t: { id: string }) => t.id);
  // Search words: the 6th and 40th most frequent words of the seed vocabulary (about 12 % and 2 % of names).
  const { WORDS } = await import('../src/seed/vocabulary.ts');
  const common = WORDS[5];
  const other = WORDS[40];
  // The least frequent word of the vocabulary (about 0.25 % of names): few matches, far apart.
  const rare = WORDS.at(-1);
  // A text search counts up to 1,000 (then answers totalRelation gte): enough to tell a common word.
  const counted = async (path: string) => {
    const body = await api(path);
    return `${body.total}${body.totalRelation === 'gte' ? ' or more' : ''}`;
  };
  log(`"${common}" is in ${await counted(`/v1/tasks/search?limit=1&expand=none&name=${common}`)} task names`);
  // A walk 50 pages deep (limit 50) through the text-free search.
  let cursor = '';
  for (let page = 1; page < 50; page++) {
    cursor = (await api(`/v1/tasks/search?limit=50&expand=none${cursor ? `&cursor=${cursor}` : ''}`))
      .nextCursor;
  }
  const documents = await counted(`/v1/documents/search?limit=1&expand=none&name=${common}`);
  const thread = (await api('/v1/posts/list?entityType=task&entityId=1&limit=1&includeTotal=true')).total;
  log(`"${common}" is in ${documents} document names; task 1 has ${thread} top-level posts`);
  let n = 0;
  return [
    {
      name: 'get task (expand=all)',
      floor: true,
      target: 'p95 ≤ 1 / 3 ms',
      requests: rotating(sample.map((id: string) => `/v1/tasks/${id}`)),
    },
    {
      name: 'create task',
      floor: true,
      target: 'p95 ≤ 3 / 6 ms',
      requests: rotating(['/v1/tasks'], 'POST', () =>
        JSON.stringify({
          name: `Bench task ${n++} ${common}`,
          teamId: team.item.id,
          description: 'made by the bench',
        }),
      ),
    },
    {
      name: 'batch of 100 creates',
      target: 'p95 ≤ 50 / 120 ms',
      requests: rotating(['/v1/tasks/batch?expand=none'], 'POST', () =>
        JSON.stringify({
          tasks: Array.from({ length: 100 }, () => ({ name: `Batch task ${n++}`, teamId: team.item.id })),
        }),
      ),
    },
    {
      name: `search one word ("${common}")`,
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/tasks/search?name=${common}`]),
    },
    {
      name: `search a rare word ("${rare}")`,
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/tasks/search?name=${rare}`]),
    },
    {
      name: 'search two fields, any',
      floor: true,
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/tasks/search?name=${other}&description=${common}&matchMode=any`]),
    },
    { name: 'list: first page', target: '= deep page', requests: rotating(['/v1/tasks/search?limit=50']) },
    {
      name: 'list: page 50 of a walk',
      target: '= first page',
      requests: rotating([`/v1/tasks/search?limit=50&cursor=${cursor}`]),
    },
    {
      name: `list by team (${Math.round(team.n / 1000)}k)`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/tasks/search?limit=50&teamId=${team.item.id}`]),
    },
    {
      name: `list by team, as a member`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/tasks/search?limit=50&teamId=${team.item.id}`]),
      token: memberToken,
    },
    {
      name: `list by project (${Math.round(project.n / 1000)}k)`,
      floor: true,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/tasks/search?limit=50&projectId=${project.item.id}`]),
    },
    { name: 'projects list: first page', target: '', requests: rotating(['/v1/projects/list?limit=50']) },
    {
      name: `documents: search one word`,
      target: 'p95 ≤ 25 / 50 ms',
      requests: rotating([`/v1/documents/search?name=${common}`]),
    },
    {
      name: 'documents: by team, total',
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/documents/search?limit=50&teamId=${team.item.id}`]),
    },
    {
      name: 'documents: by team, as a member',
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating([`/v1/documents/search?limit=50&teamId=${team.item.id}`]),
      token: memberToken,
    },
    {
      name: `posts list: busy task (${Math.round(thread / 100) / 10}k)`,
      target: 'p95 ≤ 5 / 15 ms',
      requests: rotating(['/v1/posts/list?entityType=task&entityId=1&limit=50&includeTotal=true']),
    },
    {
      name: 'projects list by team, total',
      target: '',
      requests: rotating([`/v1/projects/list?limit=50&includeTotal=true&teamId=${team.item.id}`]),
    },
  ];
}
