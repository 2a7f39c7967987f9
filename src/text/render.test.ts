// No single request stalls the server (docs/reliability.md, "No request holds the event loop"): the
// pathological corpus, at the size limit, sent one input a request, as a batch of 100, and in
// parallel across every route that takes rich text, while another client calls /healthz. Conversions
// run in the render pool; an input past its time budget is a 400 naming the field, and nothing is
// written.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type Response, setup } from '../test/helpers.ts';
import { pathologicalCorpus } from '../test/pathological.ts';
import { DEFAULT_RENDER_BUDGET_MS, setRenderBudget } from './render-pool.ts';

const f = await setup();
const eng = (await f.owner.post('/v1/teams', { name: 'Render', publicId: 'RND' })).body;
const project = (await f.owner.post('/v1/projects?expand=none', { name: 'Render', teamId: eng.id })).body;
const area = (await f.owner.post('/v1/areas', { name: 'Render area', publicId: 'RNA' })).body;
const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Thread', teamId: eng.id })).body;
const SIZE = 200_000;
// The one case the nesting bound refuses: HTML elements left open, thousands deep.
const REFUSED = new Set(['html: unclosed elements']);
let base = '';
const headers = { authorization: `Bearer ${f.ws.token}`, 'content-type': 'application/json' };

before(async () => {
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(f.app.server.address() as AddressInfo).port}`;
});
after(() => setRenderBudget(DEFAULT_RENDER_BUDGET_MS));

type Answer = Pick<Response, 'status' | 'body'>;

async function post(path: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Calls /healthz every 50 ms until stopped; the slowest answer and how many there were. */
function probeHealth() {
  let running = true;
  let slowest = 0;
  let answers = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${base}/healthz`);
      await res.text();
      assert.equal(res.status, 200);
      slowest = Math.max(slowest, performance.now() - started);
      answers += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { slowest, answers };
  };
}

/** Runs `work` while probing /healthz; fails if any answer took over a second. */
async function whileProbing(work: () => Promise<void>): Promise<void> {
  const stop = probeHealth();
  try {
    await work();
  } finally {
    const { slowest, answers } = await stop();
    assert.ok(answers > 0, 'the probe was answered');
    assert.ok(slowest < 1_000, `/healthz waited ${Math.round(slowest)} ms`);
  }
}

function expectOutcome(name: string, res: Answer, field: string): void {
  if (REFUSED.has(name)) {
    assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`);
    assert.equal(res.body.code, 'validation_failed');
    assert.match(res.body.errors[0].path, new RegExp(`^/body/${field}`));
  } else {
    assert.equal(res.status, 201, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
}

/** Runs `items` through `fn`, `width` at a time. */
async function inTurns<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

describe('the pathological corpus at the size limit', () => {
  test('one input a request, as task descriptions: each converted or refused, /healthz answered', async () => {
    await whileProbing(() =>
      inTurns(pathologicalCorpus(SIZE), 2, async ({ name, input }) => {
        const res = await post('/v1/tasks?expand=none', { name, teamId: eng.id, description: input });
        expectOutcome(name, res, 'description');
        if (res.status === 201) assert.equal(typeof res.body.description.html, 'string');
      }),
    );
  });

  test('a batch of 100 entries: refused entries fail alone, naming the field', async () => {
    const corpus = pathologicalCorpus(20_000);
    const tasks = Array.from({ length: 100 }, (_, i) => {
      const { name, input } = corpus[i % corpus.length]!;
      return { name: `batch ${i} ${name}`, teamId: eng.id, description: input };
    });
    await whileProbing(async () => {
      const res = await post('/v1/tasks/batch?expand=none', { tasks });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      const refused = tasks.filter((t) => REFUSED.has(t.name.replace(/^batch \d+ /, '')));
      assert.equal(res.body.succeeded.length, 100 - refused.length);
      assert.deepEqual(
        res.body.failed.map((e: { index: number; code: string }) => [e.index, e.code]),
        refused.map((t) => [tasks.indexOf(t), 'validation_failed']),
      );
      for (const failure of res.body.failed) assert.match(failure.error, /description/);
    });
  });

  test('in parallel on every route that takes rich text', async () => {
    const corpus = pathologicalCorpus(SIZE).filter((c) => !REFUSED.has(c.name));
    const pick = (i: number) => corpus[(i * 7) % corpus.length]!;
    const markdownOf = (i: number) => {
      const { input } = pick(i);
      return typeof input === 'string' ? input : input.html;
    };
    const requests: [string, unknown][] = [
      ['/v1/tasks?expand=none', { name: 'parallel task', teamId: eng.id, description: pick(0).input }],
      ['/v1/tasks?expand=none', { name: 'parallel task', teamId: eng.id, description: pick(1).input }],
      ['/v1/documents?expand=none', { name: 'parallel doc', teamId: eng.id, description: pick(2).input }],
      ['/v1/projects?expand=none', { name: 'parallel project', teamId: eng.id, description: pick(3).input }],
      ['/v1/posts?expand=none', { entityType: 'task', entityId: task.id, content: markdownOf(4) }],
      ['/v1/posts?expand=none', { entityType: 'project', entityId: project.id, content: markdownOf(5) }],
      [
        `/v1/projects/${project.id}/status-update?expand=none`,
        { statusId: project.statusId, content: markdownOf(6) },
      ],
      ['/v1/task-templates', { name: 'parallel template', areaId: area.id, description: pick(7).input }],
    ];
    await whileProbing(async () => {
      const answers = await Promise.all(requests.map(([path, body]) => post(path, body)));
      for (const [i, res] of answers.entries()) {
        assert.ok(res.status < 500, `${requests[i]![0]}: ${res.status}`);
        assert.ok(
          [200, 201].includes(res.status),
          `${requests[i]![0]}: ${JSON.stringify(res.body).slice(0, 300)}`,
        );
      }
    });
  });
});

describe('the time budget of one conversion', () => {
  test('past it the input is refused with a 400 naming the field, and nothing is written', async () => {
    setRenderBudget(10);
    const slow = pathologicalCorpus(SIZE).find((c) => c.name === 'nested images')!.input;
    try {
      const res = await post('/v1/tasks?expand=none', {
        name: 'Over budget',
        teamId: eng.id,
        description: slow,
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(res.body.errors, [
        {
          path: '/body/description',
          message:
            'took longer than 10 ms to convert; split it or simplify it (long runs of emphasis, brackets or table cells)',
        },
      ]);
      const post2 = await post('/v1/posts?expand=none', {
        entityType: 'task',
        entityId: task.id,
        content: slow,
      });
      assert.equal(post2.status, 400);
      assert.equal(post2.body.errors[0].path, '/body/content');
      const batch = await post('/v1/tasks/batch?expand=none', {
        tasks: [
          { name: 'Over budget', teamId: eng.id, description: (slow as string).slice(0, 150_000) },
          { name: 'Within budget', teamId: eng.id },
        ],
      });
      assert.equal(batch.status, 200);
      assert.deepEqual(
        batch.body.succeeded.map((t: { name: string }) => t.name),
        ['Within budget'],
      );
      assert.deepEqual(
        batch.body.failed.map((e: { index: number }) => e.index),
        [0],
      );
    } finally {
      setRenderBudget(DEFAULT_RENDER_BUDGET_MS);
    }
    const found = await f.owner.get('/v1/tasks/search?name=over%20budget&expand=none');
    assert.equal(found.body.total, 0, 'no task was written');
    // The stopped worker was replaced: the next conversion works.
    const next = await post('/v1/tasks?expand=none', {
      name: 'After',
      teamId: eng.id,
      description: '**ok**',
    });
    assert.equal(next.status, 201);
    assert.equal(next.body.description.html, '<p><strong>ok</strong></p>');
  });
});
