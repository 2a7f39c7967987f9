// `npm start`: configuration, database, migrations, first-start bootstrap, then serve until SIGTERM.
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry } from 'prom-client';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig, metricsOn } from './config.ts';
import { openDatabase } from './db/index.ts';
import { serveMetrics } from './metrics/http.ts';
import {
  observeStatement,
  register,
  startDefaultMetrics,
  trackPool,
  trackWebhooks,
} from './metrics/metrics.ts';
import { backlog, countByState } from './modules/webhooks/repository.ts';
import { startWebhookWorker, type Worker } from './modules/webhooks/worker.ts';
import { prepare } from './prepare.ts';

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

await prepare(config, fail);

const metrics = metricsOn(config);
if (metrics) startDefaultMetrics();
// A worker of the cluster script answers the primary's requests for its metrics, from as early as it
// can: the primary's scrape waits for every worker, a starting one too.
if (metrics && cluster.isWorker) new AggregatorRegistry();
const database = openDatabase(config.databaseUrl, {
  preparedStatements: config.pgPreparedStatements,
  poolSize: config.pgPoolSize,
  connectTimeoutMs: config.pgConnectTimeoutMs,
  statementTimeoutMs: config.pgStatementTimeoutMs,
  ...(metrics ? { onStatement: observeStatement } : {}),
});
if (metrics && database.pool) trackPool(database.pool);
if (metrics)
  trackWebhooks({
    counts: () => countByState(database.db),
    backlog: () => backlog(database.db, database.dialect),
  });

const app = await buildApp({ config, database });
let worker: Worker | undefined;

// The signal handlers are in place before the server listens: a SIGTERM that comes as soon as the
// port is open (an orchestrator that changed its mind) still shuts down cleanly, with exit code 0.
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // app.close() stops accepting connections and resolves when in-flight requests have finished. A
  // keep-alive connection that was busy at that moment would then sit idle for the keep-alive
  // timeout (72 s) before the process could exit: answers from now on say `Connection: close`, and
  // connections that fall idle are closed as they do.
  // Ahead of Fastify's own listener, which may already have answered (503 while closing): setting a
  // header after that threw, uncaught, and the process died with the shutdown half done.
  app.server.prependListener('request', (_req, res) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  });
  const idle = setInterval(() => app.server.closeIdleConnections(), 100);
  await app.close();
  clearInterval(idle);
  metricsServer?.close();
  // Deliveries under way finish (10 s at most each) and their outcome is recorded before the exit.
  await worker?.stop();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  if (stopping) await new Promise(() => {}); // shutdown() exits
  await database.close().catch(() => {});
  fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
}
// Under the cluster script the primary serves every worker's metrics on the metrics port (cluster.ts).
const metricsServer =
  config.metricsPort !== undefined && !cluster.isWorker && !stopping
    ? await serveMetrics(config.host, config.metricsPort, () => register.metrics()).catch(
        async (error: Error) => {
          await app.close();
          await database.close().catch(() => {});
          fail(`cannot serve metrics on ${config.host}:${config.metricsPort}: ${error.message}`);
        },
      )
    : undefined;
if (metricsServer) {
  const address = metricsServer.address() as AddressInfo;
  app.log.info({ url: `http://${config.host}:${address.port}/metrics` }, 'metrics listening');
}
if (!stopping) {
  app.log.info({ database: database.description }, 'cairn is ready');
  worker = config.webhookWorker ? startWebhookWorker(database, config, app.log) : undefined;
}
