// `npm run crash:webhooks`: at-least-once delivery survives SIGKILL (issue 10). Under a stream of
// writes, a server process is killed at random moments and started again; afterwards every event of
// a subscribed type that committed must have reached the receiver (duplicates allowed: they carry
// the same webhook-id), and every write that was answered 2xx must have its event.
//
// CRASH_DATABASE=sqlite|postgres|both (default both); CRASH_KILLS (default 10 per database);
// PostgreSQL (at CRASH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres) runs two
// server processes on one database, writes going to both and kills hitting either.

import { openDatabase } from '../src/db/index.ts';
import { type Received, startReceiver } from '../src/test/receiver.ts';
import { api, freePort, runProof, type Server, scratchDatabase, startServer } from './servers.ts';

const KILLS = Number(process.env.CRASH_KILLS ?? 10);
const ADMIN = process.env.CRASH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.CRASH_DATABASE ?? 'both';
const TYPES = ['task.created', 'task.updated', 'document.created'] as const;

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  const db = await scratchDatabase(dialect, ADMIN);
  const receiver = await startReceiver();
  const ports = await Promise.all((dialect === 'postgres' ? [0, 1] : [0]).map(() => freePort()));
  const servers: Server[] = [];
  try {
    for (const port of ports) servers.push(await startServer(db.url, port));
    const base = () => servers[Math.floor(Math.random() * servers.length)]!.base;
    const team = (await api(base(), 'POST', '/v1/teams', { name: 'Crash' }))!.body;
    for (const event of TYPES) {
      const res = await api(base(), 'POST', '/v1/webhooks/subscribe', {
        hookUrl: `${receiver.base}/${event}`,
        event,
      });
      if (res?.status !== 201) throw new Error(`cannot subscribe: ${JSON.stringify(res?.body)}`);
    }

    // Writers: creates, updates and documents, four at a time, until the kills are done.
    const acknowledged: { type: string; id: string }[] = [];
    let writing = true;
    const writer = async (n: number) => {
      let mine: string | undefined;
      for (let i = 0; writing; i++) {
        if (i % 5 === 4) {
          const res = await api(base(), 'POST', '/v1/documents?expand=none', {
            name: `Doc ${n}.${i}`,
            teamId: team.id,
          });
          if (res && res.status === 201) acknowledged.push({ type: 'document.created', id: res.body.id });
        } else if (mine && i % 2 === 1) {
          const res = await api(base(), 'POST', '/v1/tasks?expand=none', {
            id: mine,
            name: `Task ${n}.${i}`,
          });
          if (res && res.status === 200) acknowledged.push({ type: 'task.updated', id: mine });
        } else {
          const res = await api(base(), 'POST', '/v1/tasks?expand=none', {
            name: `Task ${n}.${i}`,
            teamId: team.id,
          });
          if (res && res.status === 201) {
            mine = res.body.id;
            acknowledged.push({ type: 'task.created', id: res.body.id });
          }
        }
      }
    };
    const writers = [1, 2, 3, 4].map(writer);

    const started = Date.now();
    for (let k = 0; k < KILLS; k++) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      const i = Math.floor(Math.random() * servers.length);
      await servers[i]!.kill();
      servers[i] = await startServer(db.url, ports[i]!);
    }
    writing = false;
    await Promise.all(writers);
    log(
      `${dialect}: ${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s; ${acknowledged.length} writes acknowledged`,
    );

    // Every committed event of a subscribed type, from the database itself.
    const reader = openDatabase(db.url);
    const events = await reader.db
      .selectFrom('events')
      .select(['id', 'type', 'entity_id'])
      .where('type', 'in', [...TYPES])
      .execute();
    await reader.close();
    const eventOf = new Set(events.map((e) => `${e.type}:${e.entity_id}`));
    const unrecorded = acknowledged.filter((w) => !eventOf.has(`${w.type}:${w.id}`));

    // A delivery in flight at a kill waits out its lease (60 s) before another process sends it.
    const wanted = new Set(events.map((e) => e.id));
    const received = () => new Set(receiver.received.map((r: Received) => String(r.headers['webhook-id'])));
    const until = Date.now() + 150_000;
    // One set per look (not one per event: that blocked this process, and so the receiver, for seconds).
    const allIn = () => {
      const got = received();
      return [...wanted].every((id) => got.has(id));
    };
    while (!allIn() && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const got = received();
    const missing = [...wanted].filter((id) => !got.has(id));
    const duplicates = receiver.received.length - got.size;
    log(
      `${dialect}: ${events.length} events committed, ${got.size} delivered (${duplicates} duplicate deliveries), ` +
        `${missing.length} missing; ${unrecorded.length} acknowledged writes without their event; ` +
        `caught up ${((Date.now() - started) / 1000).toFixed(1)} s after the first kill`,
    );
    if (missing.length > 0) {
      // What the subscriptions were doing, to tell a stuck queue from a slow one.
      const typeOf = new Map(events.map((e) => [e.id, e.type]));
      const perType = new Map<string, number>();
      for (const id of missing) perType.set(typeOf.get(id)!, (perType.get(typeOf.get(id)!) ?? 0) + 1);
      log(`${dialect}: missing by type ${JSON.stringify(Object.fromEntries(perType))}`);
      const look = openDatabase(db.url);
      const subs = await look.db
        .selectFrom('webhook_subscriptions')
        .select(['event', 'state', 'attempts', 'next_attempt_at', 'lease_owner', 'lease_until', 'cursor_seq'])
        .execute();
      const tries = await look.db
        .selectFrom('webhook_deliveries')
        .select(['event_type', 'status_code', 'error'])
        .where('error', 'is not', null)
        .limit(10)
        .execute();
      await look.close();
      log(`${dialect}: subscriptions ${JSON.stringify(subs)}; failed attempts ${JSON.stringify(tries)}`);
    }
    return missing.length === 0 && unrecorded.length === 0 && events.length > 0;
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    await receiver.close();
    await db.drop();
  }
}

await runProof('crash:webhooks', which, run);
