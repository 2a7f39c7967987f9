// SQLite in WAL mode copies the log back into the database file at checkpoints. Left automatic, that
// happens inside whichever commit crosses the threshold, and that request pays for it (the tail of
// write latency). Here a worker thread with its own connection runs a PASSIVE checkpoint every
// second instead: it blocks neither readers nor writers and runs off the event loop. The request
// connection keeps a high automatic threshold as a backstop (openSqlite).
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: 1000 });
const timer = setInterval(() => {
  try { db.exec('pragma wal_checkpoint(passive)'); } catch {}
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.exec('pragma wal_checkpoint(passive)'); } catch {}
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(path: string, intervalMs = 1000): Checkpointer {
  const worker = new Worker(WORKER, { eval: true, workerData: { path, intervalMs } });
  worker.unref();
  return {
    stop: () =>
      new Promise((resolve) => {
        // Unref'd while running (it must not keep a finished process alive); waited for when stopping.
        worker.ref();
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
