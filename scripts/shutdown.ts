// `npm run proof:shutdown`: SIGTERM under load (issue 11). Writers create tasks flat out on keep-alive
// connections, with a webhook subscription whose receiver is slow, and the server gets SIGTERM. Then:
//   - every request sent before the signal got an HTTP answer (none cut off);
//   - every create answered 2xx is there after a restart;
//   - the process exited by itself, and left no subscription leased (no delivery half done: one in
//     flight finished and was recorded), so the next process delivers the rest at once;
//   - every acknowledged create's event reaches the receiver after the restart.
// SHUTDOWN_DATABASE=sqlite|postgres|both (default both).
import { openDatabase } from '../src/db/index.ts';
import { startReceiver } from '../src/test/receiver.ts';
import { api, freePort, runProof, scratchDatabase, startServer, TOKEN } from './servers.ts';

const ADMIN = process.env.SHUTDOWN_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.SHUTDOWN_DATABASE ?? 'both';

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  const db = await scratchDatabase(dialect, ADMIN);
  const receiver = await startReceiver();
  receiver.answer('/slow', () => ({ status: 200, delayMs: 50 }));
  const port = await freePort();
  let server = await startServer(db.url, port);
  try {
    const team = (await api(server.base, 'POST', '/v1/teams', { name: 'Shutdown' }))!.body;
    await api(server.base, 'POST', '/v1/webhooks/subscribe', {
      hookUrl: `${receiver.base}/slow`,
      event: 'task.created',
    });

    let signalledAt = Number.POSITIVE_INFINITY;
    const acknowledged: string[] = [];
    let cutOff = 0;
    let refusedAfter = 0;
    let answered503 = 0;
    let running = true;
    const writer = async (w: number) => {
      for (let i = 0; running; i++) {
        const sentAt = Date.now();
        try {
          const res = await fetch(`${server.base}/v1/tasks?expand=none`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `S${w}.${i}`, teamId: team.id }),
          });
          const body = await res.json();
          if (res.status === 201) acknowledged.push(body.id);
          else if (res.status === 503) answered503++;
        } catch {
          if (sentAt < signalledAt) cutOff++;
          else refusedAfter++;
          if (Date.now() > signalledAt) running = false;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 3000));
    const before = acknowledged.length;
    signalledAt = Date.now();
    const exited = new Promise<number | null>((resolve) =>
      server.process.once('exit', (code) => resolve(code)),
    );
    server.process.kill('SIGTERM');
    const code = await exited;
    const exitMs = Date.now() - signalledAt;
    running = false;
    await Promise.all(writers);

    const look = openDatabase(db.url);
    const leased = await look.db
      .selectFrom('webhook_subscriptions')
      .select('id')
      .where('lease_owner', 'is not', null)
      .execute();
    await look.close();

    server = await startServer(db.url, port);
    let missing = 0;
    for (const id of acknowledged) {
      const res = await api(server.base, 'GET', `/v1/tasks/${id}?expand=none`);
      if (res?.status !== 200) missing++;
    }
    const delivered = await receiver
      .waitFor('/slow', acknowledged.length, 240_000)
      .then((got) => new Set(got.map((r) => r.json.data.id)))
      .catch(() => new Set(receiver.received.map((r) => r.json?.data?.id)));
    const undelivered = acknowledged.filter((id) => !delivered.has(id)).length;
    log(
      `${dialect}: ${acknowledged.length} creates acknowledged (${before} before SIGTERM); exit code ${code} after ${exitMs} ms; ` +
        `${cutOff} requests cut off, ${answered503} answered 503 while closing, ${refusedAfter} refused after; ` +
        `${leased.length} subscriptions left leased; ${missing} acknowledged creates missing; ${undelivered} not delivered after restart`,
    );
    return code === 0 && cutOff === 0 && leased.length === 0 && missing === 0 && undelivered === 0;
  } finally {
    await server.stop().catch(() => {});
    await receiver.close();
    await db.drop();
  }
}

await runProof('proof:shutdown', which, run);
