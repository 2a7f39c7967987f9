// Runs the API fuzzer (fuzz.ts) against a fixture: seeds things to point at (in this workspace, in a
// private team, and in another workspace), then sends `runs` generated requests one at a time.
import fc from 'fast-check';
import { check, type Finding, fingerprint, operationsOf, requests } from './fuzz.ts';
import type { Fixture } from './helpers.ts';

export interface FuzzReport {
  requests: number;
  statuses: Record<string, number>;
  findings: Finding[];
}

async function seed(f: Fixture): Promise<string[]> {
  const ok = <T extends { status: number; body: { id: string } }>(r: T) => {
    if (r.status >= 300) throw new Error(`fuzz seed failed: ${JSON.stringify(r.body)}`);
    return r.body.id;
  };
  const team = ok(await f.owner.post('/v1/teams', { name: 'Fuzz' }));
  const area = ok(await f.owner.post('/v1/areas', { name: 'Fuzz area' }));
  const member = await f.newUser('member', 'Fuzz Member');
  const hidden = ok(await member.api.post('/v1/teams', { name: 'Fuzz hidden', privacy: 'private' }));
  const task = ok(await f.owner.post('/v1/tasks?expand=none', { name: 'Fuzz task', teamId: team }));
  const secret = ok(await member.api.post('/v1/tasks?expand=none', { name: 'Hidden task', teamId: hidden }));
  const project = ok(
    await f.owner.post('/v1/projects?expand=none', { name: 'Fuzz project', teamIds: [team] }),
  );
  const doc = ok(await f.owner.post('/v1/documents?expand=none', { name: 'Fuzz doc', teamId: team }));
  const post = ok(
    await f.owner.post('/v1/posts', { entityType: 'task', entityId: task, content: 'Fuzz post' }),
  );
  const template = ok(await f.owner.post('/v1/task-templates', { name: 'Fuzz template', areaId: area }));
  const other = await f.newWorkspace('Fuzzother');
  const otherTeam = ok(await other.owner.post('/v1/teams', { name: 'Theirs' }));
  const theirs = ok(
    await other.owner.post('/v1/tasks?expand=none', { name: 'Their task', teamId: otherTeam }),
  );
  return [team, area, member.id, hidden, task, secret, project, doc, post, template, otherTeam, theirs];
}

export async function runFuzz(
  f: Fixture,
  options: { runs: number; seed: number; progress?: (done: number) => void },
): Promise<FuzzReport> {
  const doc = (await f.anonymous.get('/openapi.json')).body;
  const { operations, components } = operationsOf(doc);
  const ids = await seed(f);
  const cursors: string[] = [];
  const arbitrary = requests(operations, components, ids, () => cursors);
  const report: FuzzReport = { requests: 0, statuses: {}, findings: [] };
  let state = await fingerprint(f.database);
  const BATCH = 500;
  for (let start = 0; start < options.runs; start += BATCH) {
    const batch = fc.sample(arbitrary, {
      seed: options.seed + start,
      numRuns: Math.min(BATCH, options.runs - start),
    });
    for (const r of batch) {
      const { status, finding, body } = await check(f.app, f.ws.token, r);
      report.requests++;
      report.statuses[status] = (report.statuses[status] ?? 0) + 1;
      if (finding) report.findings.push(finding);
      if (typeof body?.nextCursor === 'string') cursors.unshift(body.nextCursor);
      if (cursors.length > 20) cursors.pop();
      const after = await fingerprint(f.database);
      // A refused request, and any read, leaves the database as it was.
      if (after !== state && (status >= 400 || r.method === 'GET')) {
        report.findings.push({
          request: `${r.method} ${r.url} ${r.payload?.slice(0, 300) ?? ''}`,
          status,
          why: 'the database changed',
        });
      }
      state = after;
    }
    options.progress?.(report.requests);
  }
  return report;
}
