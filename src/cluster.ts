// `npm run start:cluster -- --workers N`: N server processes sharing one port on one machine (Node's
// cluster module hands each new connection to the next worker). For a single host with several cores;
// across hosts, run `npm start` on each behind a load balancer (docs/deployment.md).
//
// The primary migrates and bootstraps once, then forks the workers, restarts one that dies (waiting
// longer each time one dies young, so a crash loop does not spin), and on SIGTERM or SIGINT passes the
// signal on and exits when every worker has finished its requests and deliveries.
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { loggerOptions } from './log.ts';
import { serveMetrics } from './metrics/http.ts';
import { prepare } from './prepare.ts';

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  process.exit(1);
}

/** A worker that dies sooner than this after its start counts as a crash loop. */
const YOUNG_MS = 10_000;
const MAX_DELAY_MS = 30_000;

async function primary(): Promise<void> {
  let workers: number;
  let config: Config;
  try {
    const { values } = parseArgs({ options: { workers: { type: 'string' } }, strict: true });
    workers = values.workers === undefined ? availableParallelism() : Number(values.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
      fail(`--workers must be a whole number from 1 to 64 (got ${values.workers})`);
    }
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof TypeError) fail(error.message);
    throw error;
  }
  await prepare(config, fail);
  const log = pino(loggerOptions(config.logLevel));

  let stopping = false;
  let delay = 1000;
  const started = new Map<Worker, number>();
  const fork = () => started.set(cluster.fork(), Date.now());

  cluster.on('exit', (worker, code, signal) => {
    const age = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) {
        log.info('cluster stopped');
        process.exit(0);
      }
      return;
    }
    delay = age < YOUNG_MS ? Math.min(delay * 2, MAX_DELAY_MS) : 1000;
    log.error(
      { workerPid: worker.process.pid, code, signal, restartInMs: delay },
      'worker died; starting another',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: started.size }, 'cluster stopping: workers finish their requests');
    if (started.size === 0) process.exit(0);
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < workers; i++) fork();
  // One scrape sees the whole node: the primary asks every worker for its metrics and adds them up.
  if (config.metricsPort !== undefined) {
    const aggregator = new AggregatorRegistry();
    const server = await serveMetrics(config.host, config.metricsPort, () =>
      aggregator.clusterMetrics(),
    ).catch((error: Error) =>
      fail(`cannot serve metrics on ${config.host}:${config.metricsPort}: ${error.message}`),
    );
    const address = server.address() as AddressInfo;
    log.info({ url: `http://${config.host}:${address.port}/metrics` }, 'metrics listening');
  }
  log.info({ workers, host: config.host, port: config.port }, 'cairn cluster started');
}

if (cluster.isPrimary) {
  await primary();
} else {
  // A Ctrl-C in a terminal reaches the whole process group: the primary passes SIGTERM on, so the
  // worker's own SIGINT is left to its usual handler, which shuts down the same way.
  await import('./main.ts');
}
