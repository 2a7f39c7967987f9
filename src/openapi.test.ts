// /openapi.json as an integrator meets it (docs/decisions.md §8): every operation named, every error declared
// as problem+json, every body with examples, and a client generated from it (openapi-typescript +
// openapi-fetch, in tools/client-check) type-checks a call to every operation with those examples,
// and refuses a create without its required fields. Runs once, in the SQLite pass: the document does
// not depend on the database.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { onPostgres, setup } from './test/helpers.ts';

const once = onPostgres ? () => {} : test;
const root = new URL('..', import.meta.url).pathname;
const tools = join(root, 'tools/client-check');

// biome-ignore lint/suspicious/noExplicitAny: the parsed OpenAPI document.
type Doc = any;

/** A body's examples: the media type's `example`, or the values of its `examples`. */
function bodyExamples(op: Doc): unknown[] {
  const media = op.requestBody.content['application/json'];
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, Doc>).map((e) => e.value);
}

async function document(): Promise<Doc> {
  const f = await setup('sqlite');
  const res = await f.anonymous.get('/openapi.json');
  assert.equal(res.status, 200);
  return res.body;
}

function operations(doc: Doc): { path: string; method: string; op: Doc }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
}

once('every operation has a unique operationId, problem+json errors and examples on its body', async () => {
  const doc = await document();
  const ops = operations(doc);
  assert.ok(ops.length >= 33, `${ops.length} operations`);
  const ids = ops.map(({ op }) => op.operationId);
  assert.ok(
    ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
    JSON.stringify(ids),
  );
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const { path, method, op } of ops) {
    const where = `${method} ${path}`;
    if (!path.startsWith('/v1/')) continue;
    for (const [status, response] of Object.entries(op.responses as Record<string, Doc>)) {
      if (Number(status) < 400) continue;
      assert.deepEqual(Object.keys(response.content), ['application/problem+json'], `${where} ${status}`);
      assert.equal(response.content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
    }
    for (const status of ['400', '401', '405', '429', '500'])
      assert.ok(op.responses[status], `${where} ${status}`);
    if (op.requestBody) {
      assert.ok(op.responses['413'] && op.responses['415'], `${where} declares 413 and 415`);
      assert.ok(bodyExamples(op).length > 0, `${where} has body examples`);
    }
  }
  const taskBody = doc.paths['/v1/tasks'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(
    taskBody.anyOf.map((branch: Doc) => branch.required),
    [['name'], ['id']],
    'a create needs name, an update needs id',
  );
  const search = doc.paths['/v1/tasks/search'].get.parameters;
  const param = (name: string) => search.find((p: Doc) => p.name === name);
  assert.deepEqual(param('matchMode').schema.enum, ['all', 'any']);
  assert.deepEqual(param('includeDeleted').schema.enum, ['true', 'false', '1', '0', '']);
  assert.deepEqual(param('expand').schema.items.enum, [
    'all',
    'none',
    'status',
    'team',
    'area',
    'project',
    'assignee',
  ]);
  assert.equal(param('expand[]'), undefined, 'expand[] is accepted, not documented twice');
  assert.deepEqual(doc.components.schemas.Task.properties.visibility.enum, ['workspace', 'private']);
  for (const section of ['## Authentication', '## Errors', '## Pagination', '## Expansions and flags']) {
    assert.ok(doc.info.description.includes(section), section);
  }
});

once('a client generated from the document type-checks a call to every operation', async () => {
  const doc = await document();
  const dir = join(tools, 'generated');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  const generate = spawnSync(
    process.execPath,
    [join(tools, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'schema.d.ts'],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.equal(generate.status, 0, generate.stderr);

  const calls: string[] = [];
  for (const { path, method, op } of operations(doc)) {
    const pathParams = (op.parameters ?? []).filter((p: Doc) => p.in === 'path');
    const required = (op.parameters ?? []).filter((p: Doc) => p.in === 'query' && p.required);
    const parts = [
      pathParams.length ? `path: { ${pathParams.map((p: Doc) => `${p.name}: '1'`).join(', ')} }` : '',
      required.length
        ? `query: { ${required.map((p: Doc) => `${p.name}: ${JSON.stringify(p.schema.enum?.[0] ?? '1')}`).join(', ')} }`
        : '',
    ].filter(Boolean);
    const params = parts.length ? `params: { ${parts.join(', ')} }` : '';
    const bodies = op.requestBody ? bodyExamples(op).map((e) => `body: ${JSON.stringify(e)}`) : [''];
    for (const body of bodies) {
      const init = [params, body].filter(Boolean).join(', ');
      calls.push(`await api.${method.toUpperCase()}('${path}'${init ? `, { ${init} }` : ''});`);
    }
  }
  const header = [
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './schema.d.ts';",
    "const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });",
  ].join('\n');
  writeFileSync(join(dir, 'calls.ts'), `${header}\n${calls.join('\n')}\n`);
  writeFileSync(
    join(dir, 'wrong.ts'),
    `${header}
// A create without its name, and a matchMode that does not exist: both must not compile.
await api.POST('/v1/tasks', { body: { teamId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10' } });
await api.GET('/v1/tasks/search', { params: { query: { matchMode: 'some' } } });
`,
  );
  const tsc = (file: string) =>
    spawnSync(
      process.execPath,
      [
        join(tools, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--allowImportingTsExtensions',
        '--skipLibCheck',
        file,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
  const good = tsc('calls.ts');
  assert.equal(good.status, 0, `${good.stdout}${good.stderr}`);
  assert.ok(calls.length >= 40, `${calls.length} calls`);
  const bad = tsc('wrong.ts');
  assert.notEqual(bad.status, 0, 'the wrong calls must not compile');
  // The create form's type has a required name: `{ name: string; teamId?: …}`.
  assert.match(bad.stdout, /wrong\.ts\(5,[^\n]*\{ name: string;/, bad.stdout);
  assert.match(bad.stdout, /wrong\.ts\(6,.*"some"/, bad.stdout);
  rmSync(dir, { recursive: true, force: true });
});
