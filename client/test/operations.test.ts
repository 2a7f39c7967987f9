// Every operation of the current document called through the client's own methods, with the body
// examples the document gives, type-checks on the package's TypeScript 5 (its signatures cover every
// path, method, param and body); a create without its name and an unknown enum value do not; answers
// are typed, and an integrator's first lines compile with the Expanded types while the bare Team's
// expansions are `possibly undefined`. Once, in the SQLite pass: the document does not depend on the database.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { onPostgres } from '../../src/test/helpers.ts';
import { serverDocument } from '../scripts/document.ts';

const once = onPostgres ? test.skip : test;
const dir = new URL('..', import.meta.url).pathname;

// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document.
type Doc = any;

function bodyExamples(op: Doc): unknown[] {
  const media = op.requestBody.content['application/json'];
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, Doc>).map((e) => e.value);
}

function callsOf(doc: Doc): string[] {
  const calls: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? []) as Doc[];
      const inPath = params.filter((p) => p.in === 'path');
      const required = params.filter((p) => p.in === 'query' && p.required);
      const parts = [
        inPath.length ? `path: { ${inPath.map((p) => `${JSON.stringify(p.name)}: '1'`).join(', ')} }` : '',
        required.length
          ? `query: { ${required.map((p) => `${JSON.stringify(p.name)}: ${JSON.stringify(p.schema.enum?.[0] ?? '1')}`).join(', ')} }`
          : '',
      ].filter(Boolean);
      const init = parts.length ? `params: { ${parts.join(', ')} }` : '';
      const bodies = op.requestBody ? bodyExamples(op).map((e) => `body: ${JSON.stringify(e)}`) : [''];
      for (const body of bodies) {
        const all = [init, body].filter(Boolean).join(', ');
        calls.push(`await cairn.${method}('${path}'${all ? `, { ${all} }` : ''});`);
      }
    }
  }
  return calls;
}

once('a call of every operation type-checks through get, post and delete; wrong ones do not', async () => {
  const doc = await serverDocument();
  const work = join(dir, 'node_modules/.cache/cairn-client-operations');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const header = `import { type components, createClient } from '${join(dir, 'src/index.ts')}';
const cairn = createClient({ baseUrl: 'http://127.0.0.1:8080', token: 't' });`;
  const calls = callsOf(doc);
  assert.ok(calls.length >= 64, `${calls.length} calls`);
  writeFileSync(
    join(work, 'calls.ts'),
    `${header}
${calls.join('\n')}
const task = await cairn.post('/v1/tasks', { body: { name: 'x' } });
const name: string = task.name;
const page = await cairn.get('/v1/tasks/search', { params: { query: { limit: 1 } } });
const more: boolean = page.hasMore;
for await (const item of cairn.paginate('/v1/projects/search')) { const id: string = item.id; void id; }
void name; void more;
// An integrator's first lines: a team read with the default expand=all, as its Expanded type.
{
  const { data, etag } = await cairn.getWithETag('/v1/teams/{id}', { params: { path: { id: '1' } } });
  const team = data as components['schemas']['TeamExpanded'];
  const names: string[] = team.taskStatuses.map((s) => s.name);
  const labels: number = team.taskLabels.length + team.members.length;
  const task = (await cairn.get('/v1/tasks/{id}', { params: { path: { id: '1' } } })) as components['schemas']['TaskExpanded'];
  const stage: string = task.status.stage;
  const tag: string | undefined = etag;
  void [names, labels, stage, tag];
  const again = await cairn.getWithETag('/v1/tasks/{id}', { params: { path: { id: '1' } }, etag: tag ?? '' });
  const kept: string | undefined = again.notModified ? again.etag : again.data.name;
  void kept;
}
`,
  );
  writeFileSync(
    join(work, 'wrong.ts'),
    `${header}
await cairn.post('/v1/tasks', { body: { teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10' } });
await cairn.get('/v1/tasks/search', { params: { query: { matchMode: 'some' } } });
await cairn.get('/v1/tasks/{id}');
const n: number = (await cairn.get('/v1/me')).name;
// The team's own type, which another expand also answers with: its expansions may be absent.
const team = await cairn.get('/v1/teams/{id}', { params: { path: { id: '1' } } });
team.taskStatuses.map((s) => s.name);
`,
  );
  // Browser types only (no Node's), as tsconfig.json checks the package.
  const tsc = (file: string) => {
    const config = join(work, `${file}.json`);
    const compilerOptions = {
      noEmit: true,
      strict: true,
      target: 'es2022',
      module: 'nodenext',
      lib: ['es2022', 'dom'],
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    };
    writeFileSync(config, JSON.stringify({ compilerOptions, files: [file] }));
    return spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', config], {
      cwd: work,
      encoding: 'utf8',
    });
  };
  const good = tsc('calls.ts');
  assert.equal(good.status, 0, `${good.stdout}${good.stderr}`);
  const bad = tsc('wrong.ts');
  const lines = new Set([...bad.stdout.matchAll(/wrong\.ts\((\d+),/g)].map((m) => Number(m[1])));
  assert.deepEqual([...lines].sort(), [3, 4, 5, 6, 9], bad.stdout);
  // The create form's type has a required name; the bare Team's expansions are optional.
  assert.match(bad.stdout, /wrong\.ts\(3,[^\n]*\{ name: string;/, bad.stdout);
  assert.match(bad.stdout, /wrong\.ts\(4,.*"some"/, bad.stdout);
  assert.match(bad.stdout, /wrong\.ts\(9,[^\n]*'team.taskStatuses' is possibly 'undefined'/, bad.stdout);
  rmSync(work, { recursive: true, force: true });
});
