// Every operation of the current document called by its name (`cairn.<operationId>(…)`), with the body
// examples the document gives, type-checks on the package's TypeScript 5 (the named methods cover every
// operation, param and body); a create without its name, an unknown field, an unknown enum value and a
// missing path param do not; answers are typed, and an integrator's first lines compile with the
// Expanded types while the bare Team's expansions are `possibly undefined`. And at run time each named
// method sends its operation's method and path. Once, in the SQLite pass: the document does not depend
// on the database.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { onPostgres } from '../../src/test/helpers.ts';
import { operationsOf, serverDocument } from '../scripts/document.ts';
import { createClient } from '../src/index.ts';
import { startStub } from './stub.ts';

const once = onPostgres ? test.skip : test;
const dir = new URL('..', import.meta.url).pathname;

// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document.
type Doc = any;

function bodyExamples(op: Doc): unknown[] {
  const media = op.requestBody.content['application/json'];
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, Doc>).map((e) => e.value);
}

// Browser types only (no Node's) by default, as tsconfig.json checks the package.
function typecheck(work: string, file: string, options: object = {}) {
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
    ...options,
  };
  writeFileSync(config, JSON.stringify({ compilerOptions, files: [file] }));
  return spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', config], {
    cwd: work,
    encoding: 'utf8',
  });
}

/** One call per operation (one per body example where there are several), each by its operationId. */
function callsOf(doc: Doc): string[] {
  const calls: string[] = [];
  for (const item of Object.values(doc.paths as Record<string, Record<string, Doc>>)) {
    for (const op of Object.values(item)) {
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
        calls.push(`await cairn.${op.operationId}(${all ? `{ ${all} }` : ''});`);
      }
    }
  }
  return calls;
}

once('a call of every operation by its name type-checks; wrong ones do not', async () => {
  const doc = await serverDocument();
  const work = join(dir, 'node_modules/.cache/cairn-client-operations');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const header = `import { type components, createClient } from '${join(dir, 'src/index.ts')}';
const cairn = createClient({ baseUrl: 'http://127.0.0.1:8080', token: 't' });`;
  const calls = callsOf(doc);
  const called = new Set(calls.map((c) => c.match(/^await cairn\.(\w+)\(/)![1]));
  assert.deepEqual(
    [...called].sort(),
    operationsOf(doc)
      .map((o) => o.id)
      .sort(),
    'every operationId called',
  );
  assert.ok(called.size >= 64, `${called.size} operations`);
  writeFileSync(
    join(work, 'calls.ts'),
    `${header}
${calls.join('\n')}
const task = await cairn.upsertTask({ body: { name: 'x' } });
const name: string = task.name;
const page = await cairn.searchTasks({ params: { query: { limit: 1 } } });
const more: boolean = page.hasMore;
for await (const item of cairn.paginate('searchProjects')) { const id: string = item.id; void id; }
for await (const reply of cairn.paginate('listPostReplies', { params: { path: { id: '1' } }, pageSize: 10 })) {
  const content: string = reply.content; void content;
}
void name; void more;
// An integrator's first lines: a team read with the default expand=all, as its Expanded type.
{
  const { data, etag } = await cairn.getWithETag('getTeam', { params: { path: { id: '1' } } });
  const team = data as components['schemas']['TeamExpanded'];
  const names: string[] = team.taskStatuses.map((s) => s.name);
  const labels: number = team.taskLabels.length + team.members.length;
  const task = (await cairn.getTask({ params: { path: { id: '1' } } })) as components['schemas']['TaskExpanded'];
  const stage: string = task.status.stage;
  const tag: string | undefined = etag;
  void [names, labels, stage, tag];
  const again = await cairn.getWithETag('getTask', { params: { path: { id: '1' } }, etag: tag ?? '' });
  const kept: string | undefined = again.notModified ? again.etag : again.data.name;
  void kept;
}
`,
  );
  writeFileSync(
    join(work, 'wrong.ts'),
    `${header}
await cairn.upsertTask({ body: { teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10' } });
await cairn.searchTasks({ params: { query: { matchMode: 'some' } } });
await cairn.getTask();
const n: number = (await cairn.getMe()).name;
// The team's own type, which another expand also answers with: its expansions may be absent.
const team = await cairn.getTeam({ params: { path: { id: '1' } } });
team.taskStatuses.map((s) => s.name);
await cairn.upsertTeam({ body: { name: 'x', colour: '#5e6ad2' } });
await cairn.paginate('getTask', { params: { path: { id: '1' } } });
await cairn.getWithETag('upsertTeam', { body: { name: 'x' } });
`,
  );
  const good = typecheck(work, 'calls.ts');
  assert.equal(good.status, 0, `${good.stdout}${good.stderr}`);
  const bad = typecheck(work, 'wrong.ts');
  const lines = new Set([...bad.stdout.matchAll(/wrong\.ts\((\d+),/g)].map((m) => Number(m[1])));
  assert.deepEqual(
    [...lines].sort((a, b) => a - b),
    [3, 4, 5, 6, 9, 10, 11, 12],
    bad.stdout,
  );
  // The create form's type has a required name; the bare Team's expansions are optional.
  assert.match(bad.stdout, /wrong\.ts\(3,[^\n]*\{ name: string;/, bad.stdout);
  assert.match(bad.stdout, /wrong\.ts\(4,.*"some"/, bad.stdout);
  assert.match(bad.stdout, /wrong\.ts\(9,[^\n]*'team.taskStatuses' is possibly 'undefined'/, bad.stdout);
  assert.match(bad.stdout, /wrong\.ts\(10,[^\n]*'colour' does not exist/, bad.stdout);
  assert.match(
    bad.stdout,
    /wrong\.ts\(11,[^\n]*'"getTask"' is not assignable to parameter of type 'PagedOperation'/,
  );
  assert.match(bad.stdout, /wrong\.ts\(12,[^\n]*No overload matches this call/, bad.stdout);
  rmSync(work, { recursive: true, force: true });
});

once('each named method sends its operation’s method and path', async () => {
  const ops = operationsOf(await serverDocument());
  const stub = await startStub((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  try {
    const cairn = createClient({ baseUrl: stub.baseUrl, token: 't', retry: false });
    const sent: string[] = [];
    for (const op of ops) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const path = Object.fromEntries(names.map((name) => [name, `${name}-1`]));
      // biome-ignore lint/suspicious/noExplicitAny: every operation in turn, called by its name.
      await (cairn as any)[op.id]({ params: { path }, ...(op.method === 'post' ? { body: {} } : {}) });
      sent.push(`${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, '$1-1')}`);
    }
    assert.deepEqual(
      stub.requests.map((r) => `${r.method} ${r.url}`),
      sent,
    );
  } finally {
    await stub.close();
  }
});

once('the README’s quickstart type-checks as it is, with the options `tsc --init` writes', () => {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const code = readme.match(/```ts\n(import \{ createClient \} from '@cairn\/client';\n[\s\S]*?)```/)?.[1];
  assert.ok(code, 'the quickstart block of README.md');
  const work = join(dir, 'node_modules/.cache/cairn-client-quickstart');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'quickstart.mts'), code.replace('@cairn/client', join(dir, 'src/index.ts')));
  // TypeScript 5.9's `tsc --init`: exactOptionalPropertyTypes and noUncheckedIndexedAccess among them.
  const check = typecheck(work, 'quickstart.mts', {
    target: 'esnext',
    lib: ['esnext', 'dom'],
    types: ['node'],
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    moduleDetection: 'force',
  });
  assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
  rmSync(work, { recursive: true, force: true });
});
