// Errors that name the fix (issue 23 §5): plain words for every schema pattern and format, never the
// expression; a date-time whose + arrived as a space; PATCH and PUT pointed to create-or-update.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { problem, setup } from '../test/helpers.ts';
import { quotesRegex, regexQuotesIn } from '../test/problem-text.ts';
import { PATTERN_MESSAGES } from './validation.ts';

const f = await setup();
const team = (await f.owner.post('/v1/teams', { name: 'Errors', publicId: 'ERR' })).body;
const area = (await f.owner.post('/v1/areas', { name: 'Errands' })).body;
const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'A task', teamId: team.id })).body;

/** The errors[] of a 400 validation_failed, checking that detail is the first of them. */
function fieldErrors(res: Awaited<ReturnType<typeof f.owner.get>>) {
  const body = problem(res, 400, 'validation_failed');
  assert.equal(body.detail, `${body.errors[0].path} ${body.errors[0].message}`);
  return body.errors;
}

describe('the check itself', () => {
  test("finds Ajv's words and regular expressions, and passes plain words", () => {
    for (const quoted of [
      'must match pattern "^#[0-9a-fA-F]{6}$"',
      'must match format "uuid"',
      '/body/name must match pattern "^\\s*\\S([\\s\\S]{0,510}\\S)?\\s*$"',
      'must look like ^[A-Za-z0-9]{1,10}$',
      'use (?:a|b)',
    ]) {
      assert.ok(quotesRegex(quoted), quoted);
    }
    const plain = [
      'must be one of: workspace, private',
      'must be 1 to 255 visible ASCII characters',
      'The request line and headers are over 16 KiB together; send long input in a POST body',
      'GET is not allowed here; use POST. To list or find these, use GET /v1/tasks/search',
      '/query/updatedSince must be a date-time with a time zone, such as 2026-11-24T09:00:00Z',
      ...Object.values(PATTERN_MESSAGES).flatMap((m) => [m(''), m('x'.repeat(600))]),
    ];
    for (const text of plain) assert.equal(quotesRegex(text), false, text);
    assert.deepEqual(
      regexQuotesIn({ detail: 'ok', errors: [{ path: '/body/x', message: 'must match format "uri"' }] }),
      ['/body/x: must match format "uri"'],
    );
  });

  test('every pattern of the OpenAPI document has plain words', async () => {
    const patterns = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'pattern' && typeof value === 'string') patterns.add(value);
          else walk(value);
        }
      }
    };
    walk((await f.anonymous.get('/openapi.json')).body);
    assert.ok(patterns.size >= 5, `found only ${[...patterns].join(', ')}`);
    assert.deepEqual(
      [...patterns].filter((p) => !(p in PATTERN_MESSAGES)),
      [],
      'patterns without a message in validation.ts PATTERN_MESSAGES',
    );
  });
});

describe('names and other required text', () => {
  test('an empty or blank name: "must not be empty", on create and update', async () => {
    for (const name of ['', '   ', '\n\t ']) {
      assert.deepEqual(fieldErrors(await f.owner.post('/v1/teams', { name })), [
        { path: '/body/name', message: 'must not be empty' },
      ]);
      assert.deepEqual(fieldErrors(await f.owner.post('/v1/tasks', { name, teamId: team.id })), [
        { path: '/body/name', message: 'must not be empty' },
      ]);
      assert.deepEqual(fieldErrors(await f.owner.post('/v1/tasks', { id: task.id, name })), [
        { path: '/body/name', message: 'must not be empty' },
      ]);
    }
    const tokens = await f.owner.post('/v1/api-tokens', { name: ' ' });
    assert.equal(problem(tokens, 400, 'validation_failed').detail, '/body/name must not be empty');
    const status = await f.owner.post('/v1/teams', {
      id: team.id,
      taskStatuses: [{ name: '', stage: 'started' }],
    });
    assert.equal(
      problem(status, 400, 'validation_failed').detail,
      '/body/taskStatuses/0/name must not be empty',
    );
  });

  test('a name too long says its bound once trimmed, once', async () => {
    const words = 'word '.repeat(200);
    assert.deepEqual(fieldErrors(await f.owner.post('/v1/areas', { name: words })), [
      {
        path: '/body/name',
        message: 'must be 512 characters or fewer, not counting leading and trailing white space',
      },
    ]);
    assert.deepEqual(fieldErrors(await f.owner.post('/v1/areas', { name: 'x'.repeat(2000) })), [
      {
        path: '/body/name',
        message: 'must be 512 characters or fewer, not counting leading and trailing white space',
      },
    ]);
    // The same name with white space around it is fine (stored trimmed).
    const padded = await f.owner.post('/v1/areas', { name: `  ${'x'.repeat(512)}  ` });
    assert.equal(padded.status, 201);
  });

  test("a post's content, a reaction, an image URL", async () => {
    const post = (s: object) => f.owner.post('/v1/posts', { entityType: 'task', entityId: task.id, ...s });
    assert.deepEqual(fieldErrors(await post({ content: ' \n ' })), [
      { path: '/body/content', message: 'must not be empty' },
    ]);
    assert.deepEqual(
      fieldErrors(
        await post({ content: 'Hi', images: [{ url: 'ftp://files.test/a.png', width: 1, height: 1 }] }),
      ),
      [{ path: '/body/images/0/url', message: 'must be an http or https URL' }],
    );
    const made = (await post({ content: 'Hi' })).body;
    assert.deepEqual(
      fieldErrors(await f.owner.post(`/v1/posts/${made.id}/reactions`, { reaction: 'two words' })),
      [{ path: '/body/reaction', message: 'must be one word, without white space' }],
    );
    assert.deepEqual(fieldErrors(await f.owner.post(`/v1/posts/${made.id}/reactions`, { reaction: '' })), [
      { path: '/body/reaction', message: 'must not be empty' },
    ]);
  });
});

describe('patterns and formats in plain words', () => {
  test('color, publicId, calendar date, email, UUID', async () => {
    assert.deepEqual(fieldErrors(await f.owner.post('/v1/areas', { name: 'Painted', color: 'red' })), [
      { path: '/body/color', message: 'must be a color: # and six hexadecimal digits, such as #5e6ad2' },
    ]);
    assert.deepEqual(fieldErrors(await f.owner.post('/v1/teams', { name: 'Odd', publicId: 'E-1' })), [
      { path: '/body/publicId', message: 'must be 1 to 10 letters (A-Z) and digits' },
    ]);
    const template = await f.owner.post('/v1/task-templates', {
      name: 'T',
      areaId: area.id,
      dueDate: '1/2/2026',
    });
    assert.deepEqual(fieldErrors(template), [
      { path: '/body/dueDate', message: 'must be a calendar date, YYYY-MM-DD, such as 2026-12-01' },
    ]);
    assert.deepEqual(fieldErrors(await f.owner.post('/v1/users', { name: 'Ann', email: 'ann at acme' })), [
      { path: '/body/email', message: 'must be an email address' },
    ]);
    assert.deepEqual(fieldErrors(await f.owner.get('/v1/tasks/search?teamId=ENG')), [
      { path: '/query/teamId', message: 'must be a UUID' },
    ]);
  });

  test('a date-time whose + arrived as a space says to encode it as %2B', async () => {
    const spaced = await f.owner.get('/v1/tasks/search?updatedSince=2026-01-01T00:00:00+00:00');
    assert.deepEqual(fieldErrors(spaced), [
      {
        path: '/query/updatedSince',
        message:
          'must be a date-time with a time zone, such as 2026-11-24T09:00:00Z: a + in a query string arrives as a space, so encode it as %2B (2026-01-01T00:00:00%2B00:00)',
      },
    ]);
    const compact = await f.owner.get('/v1/projects/search?updatedSince=2026-01-01T10:00:00.5%200100');
    assert.match(fieldErrors(compact)[0].message, /encode it as %2B \(2026-01-01T10:00:00\.5%2B0100\)$/);
    const encoded = await f.owner.get('/v1/tasks/search?updatedSince=2026-01-01T00:00:00%2B00:00');
    assert.equal(encoded.status, 200);
    assert.deepEqual(fieldErrors(await f.owner.get('/v1/documents/search?updatedSince=yesterday')), [
      {
        path: '/query/updatedSince',
        message: 'must be a date-time with a time zone, such as 2026-11-24T09:00:00Z',
      },
    ]);
  });
});

describe('PATCH and PUT', () => {
  test('on an item: 405 with Allow, pointing to create-or-update with its id', async () => {
    for (const method of ['PATCH', 'PUT'] as const) {
      const res = await f.owner.raw({
        method,
        url: `/v1/tasks/${task.id}`,
        payload: '{"name":"x"}',
        headers: { 'content-type': 'application/json' },
      });
      const body = problem(res, 405, 'method_not_allowed');
      assert.equal(res.headers.allow, 'GET, DELETE');
      assert.equal(
        body.detail,
        `${method} is not allowed here; use GET, DELETE. To change it, POST /v1/tasks with its "id" and the fields to change in the body`,
      );
    }
    const teamPatch = problem(
      await f.owner.raw({ method: 'PATCH', url: '/v1/teams/ERR' }),
      405,
      'method_not_allowed',
    );
    assert.equal(
      teamPatch.detail,
      'PATCH is not allowed here; use GET. To change it, POST /v1/teams with its "id" and the fields to change in the body',
    );
  });

  test('on a collection: 405 with Allow, saying that POST there updates with an id', async () => {
    const res = await f.owner.raw({ method: 'PUT', url: '/v1/projects' });
    assert.equal(res.headers.allow, 'POST');
    assert.equal(
      problem(res, 405, 'method_not_allowed').detail,
      'PUT is not allowed here; use POST. To create or update, POST here; with "id" in the body it updates that one',
    );
  });

  test('no hint where nothing is changed by id, and other methods as before', async () => {
    const post = (await f.owner.post('/v1/posts', { entityType: 'task', entityId: task.id, content: 'x' }))
      .body;
    const res = await f.owner.raw({ method: 'PATCH', url: `/v1/posts/${post.id}` });
    assert.equal(problem(res, 405, 'method_not_allowed').detail, 'PATCH is not allowed here; use GET');
    const del = await f.owner.raw({ method: 'DELETE', url: '/v1/tasks' });
    assert.equal(problem(del, 405, 'method_not_allowed').detail, 'DELETE is not allowed here; use POST');
  });
});
