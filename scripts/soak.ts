// `npm run soak`: load and soak (issue 11). A mixed workload (reads, searches, lists, creates, batches,
// posts) against one server process: first flat out for SOAK_PROBE_SECONDS (default 15) to find the
// maximum rate, then at 80 % of it for SOAK_SECONDS (default 600). Reported: errors (any non-2xx or
// socket error: must be 0), latency p50/p99, requests/s, and the server's resident memory after
// warm-up (one minute, or a tenth of the run) against the end (growth must stay under 10 %).
// SOAK_DATABASE=sqlite|postgres|both (default both).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { api, freePort, runProof, scratchDatabase, startServer, TOKEN } from './servers.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const PROBE = Number(process.env.SOAK_PROBE_SECONDS ?? 15);
const ADMIN = process.env.SOAK_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const which = process.env.SOAK_DATABASE ?? 'both';

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  const db = await scratchDatabase(dialect, ADMIN);
  const server = await startServer(db.url, await freePort(), { CAIRN_WEBHOOK_WORKER: 'false' });
  try {
    const team = (await api(server.base, 'POST', '/v1/teams', { name: 'Soak' }))!.body;
    const project = (await api(server.base, 'POST', '/v1/projects?expand=none', {
      name: 'Soak',
      teamIds: [team.id],
    }))!.body;
    let task = '';
    for (let i = 0; i < 200; i++) {
      const tasks = Array.from({ length: 50 }, (_, j) => ({
        name: `Soak seed ${i}.${j} ${j % 7 === 0 ? 'release' : 'chore'}`,
        teamId: team.id,
        projectId: j % 3 === 0 ? project.id : undefined,
      }));
      task = (await api(server.base, 'POST', '/v1/tasks/batch?expand=none', { tasks }))!.body.succeeded[0].id;
    }
    const json = { 'content-type': 'application/json' };
    // Weighted by repetition: mostly reads, as integrations and UIs do.
    const mix = [
      { method: 'GET', path: `/v1/tasks/${task}` },
      { method: 'GET', path: `/v1/tasks/${task}?expand=none` },
      { method: 'GET', path: `/v1/tasks/search?teamId=${team.id}&limit=50` },
      { method: 'GET', path: `/v1/tasks/search?projectId=${project.id}&limit=20` },
      { method: 'GET', path: '/v1/tasks/search?name=release&limit=20' },
      { method: 'GET', path: `/v1/projects/${project.id}` },
      { method: 'GET', path: `/v1/posts/list?entityType=task&entityId=${task}` },
      {
        method: 'POST',
        path: '/v1/tasks?expand=none',
        headers: json,
        body: JSON.stringify({ name: 'Soak new', teamId: team.id }),
      },
      {
        method: 'POST',
        path: '/v1/tasks/batch?expand=none',
        headers: json,
        body: JSON.stringify({
          tasks: Array.from({ length: 10 }, () => ({ name: 'Soak batch', teamId: team.id })),
        }),
      },
      {
        method: 'POST',
        path: '/v1/posts',
        headers: json,
        body: JSON.stringify({ entityType: 'task', entityId: task, content: 'Soak post' }),
      },
    ] as const;
    const load = (seconds: number, overallRate?: number) =>
      autocannon({
        url: server.base,
        connections: 8,
        duration: seconds,
        headers: { authorization: `Bearer ${TOKEN}` },
        requests: mix.map((r) => ({ ...r })) as never,
        ...(overallRate ? { overallRate } : {}),
      });
    const probe = await load(PROBE);
    const rate = Math.floor(probe.requests.average * 0.8);
    log(
      `${dialect}: maximum ${probe.requests.average.toFixed(0)} requests/s; soaking at ${rate}/s for ${SECONDS} s`,
    );

    const warmAt = Math.min(60, SECONDS / 10);
    const samples: { at: number; rss: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(
      () => samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(server.process.pid!) }),
      5000,
    );
    const result = await load(SECONDS, rate);
    clearInterval(sampler);
    const warm = samples.find((s) => s.at >= warmAt)?.rss ?? samples[0]?.rss ?? 0;
    const end = samples[samples.length - 1]?.rss ?? 0;
    const growth = warm > 0 ? (end / warm - 1) * 100 : 0;
    const errors = result.errors + result.timeouts + result.non2xx;
    log(
      `${dialect}: ${result.requests.total} requests at ${result.requests.average.toFixed(0)}/s; ${errors} errors ` +
        `(${result.non2xx} non-2xx, ${result.errors} socket errors, ${result.timeouts} timeouts); ` +
        `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
        `RSS ${warm.toFixed(0)} MiB after warm-up → ${end.toFixed(0)} MiB at the end (${growth.toFixed(1)} %)`,
    );
    return errors === 0 && growth < 10;
  } finally {
    await server.stop();
    await db.drop();
  }
}

await runProof('soak', which, run);
