// `npm run crash:writes`: acknowledged writes survive SIGKILL (issue 11). Writers create, update, batch
// and delete tasks while the server is killed at random moments (CRASH_KILLS, default 20 per
// database) and started again. Afterwards:
//   - every write answered 2xx is there and intact: each task reads back as its last acknowledged
//     state, or as a later write that was sent but never answered (it may have committed);
//   - every acknowledged write has its event row (task.created, task.updated, task.deleted);
//   - the database passes its own check: SQLite `pragma integrity_check` and `foreign_key_check`;
//     on PostgreSQL, every task is read back through the API and compared.
// CRASH_DATABASE=sqlite|postgres|both (default both).
import { DatabaseSync } from 'node:sqlite';
import { openDatabase } from '../src/db/index.ts';
import { api, freePort, runProof, type Server, scratchDatabase, startServer } from './servers.ts';

const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const ADMIN = process.env.CRASH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.CRASH_DATABASE ?? 'both';

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

interface Expected {
  /** Names the task may have now: the last acknowledged one, then any sent later without an answer. */
  names: string[];
  deleted: 'yes' | 'no' | 'maybe';
  acknowledged: { created: boolean; updates: number; deleted: boolean };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  const db = await scratchDatabase(dialect, ADMIN);
  const port = await freePort();
  let server: Server = await startServer(db.url, port, { CAIRN_WEBHOOK_WORKER: 'false' });
  const base = () => server.base;
  const tasks = new Map<string, Expected>();
  let acknowledged = 0;
  let unanswered = 0;
  try {
    const team = (await api(base(), 'POST', '/v1/teams', { name: 'Crash' }))!.body;
    let writing = true;

    let lastUnanswered = 0;
    const writer = async (w: number) => {
      const mine: string[] = [];
      for (let i = 0; writing; i++) {
        // While the server is down, wait a little instead of spinning on refused connections.
        if (unanswered > lastUnanswered) {
          lastUnanswered = unanswered;
          await new Promise((r) => setTimeout(r, 50));
        }
        const roll = i % 10;
        if (roll === 0) {
          // A batch of five creates.
          const names = Array.from({ length: 5 }, (_, j) => `B${w}.${i}.${j}`);
          const res = await api(base(), 'POST', '/v1/tasks/batch?expand=none', {
            tasks: names.map((name) => ({ name, teamId: team.id })),
          });
          if (res?.status === 200) {
            for (const t of res.body.succeeded) {
              tasks.set(t.id, {
                names: [t.name],
                deleted: 'no',
                acknowledged: { created: true, updates: 0, deleted: false },
              });
              mine.push(t.id);
            }
            acknowledged++;
          } else if (!res) unanswered++;
        } else if (roll < 5 || mine.length === 0) {
          const name = `T${w}.${i}`;
          const res = await api(base(), 'POST', '/v1/tasks?expand=none', { name, teamId: team.id });
          if (res?.status === 201) {
            tasks.set(res.body.id, {
              names: [name],
              deleted: 'no',
              acknowledged: { created: true, updates: 0, deleted: false },
            });
            mine.push(res.body.id);
            acknowledged++;
          } else if (!res) unanswered++;
        } else if (roll < 9) {
          const id = mine[i % mine.length]!;
          const t = tasks.get(id)!;
          if (t.deleted !== 'no') continue;
          const name = `U${w}.${i}`;
          t.names.push(name);
          const res = await api(base(), 'POST', '/v1/tasks?expand=none', { id, name });
          if (res?.status === 200) {
            t.names = [name];
            t.acknowledged.updates++;
            acknowledged++;
          } else if (res) {
            t.names.pop();
          } else unanswered++;
        } else {
          const id = mine.shift()!;
          const t = tasks.get(id)!;
          t.deleted = 'maybe';
          const res = await api(base(), 'DELETE', `/v1/tasks/${id}`);
          if (res?.status === 204) {
            t.deleted = 'yes';
            t.acknowledged.deleted = true;
            acknowledged++;
          } else if (!res) unanswered++;
          else t.deleted = 'no';
        }
      }
    };
    const writers = [1, 2, 3, 4].map(writer);
    const started = Date.now();
    for (let k = 0; k < KILLS; k++) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 900));
      await server.kill();
      server = await startServer(db.url, port, { CAIRN_WEBHOOK_WORKER: 'false' });
    }
    writing = false;
    await Promise.all(writers);
    log(
      `${dialect}: ${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `${acknowledged} writes acknowledged, ${unanswered} unanswered; ${tasks.size} tasks`,
    );

    // Read every task back through the API and compare.
    const wrong: string[] = [];
    for (const [id, t] of tasks) {
      const res = await api(base(), 'GET', `/v1/tasks/${id}?expand=none`);
      if (res?.status !== 200) {
        wrong.push(`${id}: ${res?.status}`);
        continue;
      }
      if (!t.names.includes(res.body.name))
        wrong.push(`${id}: name ${res.body.name}, expected one of ${t.names}`);
      const isDeleted = res.body.deletedAt !== null;
      if ((t.deleted === 'yes' && !isDeleted) || (t.deleted === 'no' && isDeleted)) {
        wrong.push(`${id}: deleted ${isDeleted}, expected ${t.deleted}`);
      }
    }
    await server.stop();

    // Every acknowledged write has its event.
    const reader = openDatabase(db.url);
    const events = await reader.db
      .selectFrom('events')
      .select(['type', 'entity_id'])
      .where('entity_type', '=', 'task')
      .execute();
    await reader.close();
    const count = new Map<string, number>();
    for (const e of events)
      count.set(`${e.type}:${e.entity_id}`, (count.get(`${e.type}:${e.entity_id}`) ?? 0) + 1);
    let missingEvents = 0;
    for (const [id, t] of tasks) {
      if (t.acknowledged.created && !count.get(`task.created:${id}`)) missingEvents++;
      if ((count.get(`task.updated:${id}`) ?? 0) < t.acknowledged.updates) missingEvents++;
      if (t.acknowledged.deleted && !count.get(`task.deleted:${id}`)) missingEvents++;
    }

    let integrity = 'every task read back and compared';
    if (dialect === 'sqlite') {
      const file = new DatabaseSync(db.url.replace(/^file:/, ''));
      const check = file
        .prepare('pragma integrity_check')
        .all()
        .map((r) => Object.values(r)[0]);
      const foreign = file.prepare('pragma foreign_key_check').all();
      file.close();
      integrity = `integrity_check ${check.join(',')}, foreign_key_check ${foreign.length} rows`;
      if (check.join(',') !== 'ok' || foreign.length > 0) wrong.push(integrity);
    }
    log(
      `${dialect}: ${wrong.length} tasks wrong, ${missingEvents} acknowledged writes without their event; ${integrity}`,
    );
    for (const w of wrong.slice(0, 10)) log(`  ${w}`);
    return wrong.length === 0 && missingEvents === 0 && tasks.size > 0;
  } finally {
    await server.stop().catch(() => {});
    await db.drop();
  }
}

await runProof('crash:writes', which, run);
