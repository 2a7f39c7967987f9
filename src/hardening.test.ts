// What a probe of the API as an attacker and a sloppy client found, each with the request that showed
// it, on the database of this pass: bad input is a 4xx that changes nothing and never breaks a later
// read, and nothing is lost, dropped or revealed by accident.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventsOfEntity, problem, setup } from './test/helpers.ts';

const f = await setup();
const eng = (await f.owner.post('/v1/teams', { name: 'Hardening', publicId: 'HRD' })).body;

async function create(body: Record<string, unknown>) {
  const res = await f.owner.post('/v1/tasks?expand=none', { teamId: eng.id, ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function countNamed(word: string): Promise<number> {
  const res = await f.owner.get(`/v1/tasks/search?expand=none&includeDeleted=true&name=${word}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.total;
}

describe('1. dates are years 1 to 9999 and real calendar dates', () => {
  test('out of range or impossible dates are 400 and save nothing', async () => {
    const bad = [
      8640000000000000,
      253402300800000,
      -62198755200000,
      '0000-01-01',
      '10000-01-01',
      '9999-12-31T23:00:00-02:00',
      '2024-02-30',
      '2023-02-29',
      '2026-13-01',
      '2026-11-21T24:00:00Z',
      1.5,
    ];
    for (const dueDate of bad) {
      const res = await f.owner.post('/v1/tasks', { name: 'Datebad task', teamId: eng.id, dueDate });
      const body = problem(res, 400, 'validation_failed');
      assert.equal(body.errors[0].path, '/body/dueDate', JSON.stringify(dueDate));
      const project = await f.owner.post('/v1/projects', {
        name: 'Datebad project',
        teamId: eng.id,
        startDate: dueDate,
      });
      problem(project, 400, 'validation_failed');
    }
    assert.equal(await countNamed('datebad'), 0);
    assert.equal((await f.owner.get('/v1/projects/search?name=datebad')).body.total, 0);
  });

  test('the edges of the range are stored and read back the same on both databases', async () => {
    const edges: [string | number, string][] = [
      ['0001-01-01', '0001-01-01T00:00:00.000Z'],
      [-62135596800000, '0001-01-01T00:00:00.000Z'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
      [253402300799999, '9999-12-31T23:59:59.999Z'],
      ['0999-06-15T12:30:00+02:00', '0999-06-15T10:30:00.000Z'],
      ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ];
    for (const [dueDate, stored] of edges) {
      const task = await create({ name: `Edge date ${dueDate}`, dueDate });
      assert.equal(task.dueDate, stored);
      assert.equal((await f.owner.get(`/v1/tasks/${task.id}?expand=none`)).body.dueDate, stored);
    }
    const page = await f.owner.get('/v1/tasks/search?expand=none&name=edge');
    assert.equal(page.status, 200);
    assert.equal(page.body.total, edges.length);
  });
});

describe('2. strings a database cannot store are 400 everywhere', () => {
  test('a NUL or an unpaired surrogate in any body string, query or path is 400 and saves nothing', async () => {
    const bodies: [string, unknown, string][] = [
      ['/v1/tasks', { name: 'Nul\u0000task', teamId: eng.id }, '/body/name'],
      ['/v1/tasks', { name: 'Nul task', teamId: eng.id, description: 'a\u0000b' }, '/body/description'],
      [
        '/v1/tasks',
        { name: 'Nul task', teamId: eng.id, description: { html: '<p>\u0000</p>' } },
        '/body/description/html',
      ],
      ['/v1/tasks', { name: 'Lone \ud800 surrogate', teamId: eng.id }, '/body/name'],
      ['/v1/teams', { name: 'Nul team', icon: 'x\u0000' }, '/body/icon'],
      ['/v1/projects', { name: 'Nul project', teamId: eng.id, description: '\u0000' }, '/body/description'],
      ['/v1/api-tokens', { name: 'tok\u0000en' }, '/body/name'],
      ['/v1/collections', { name: '\u0000' }, '/body/name'],
      ['/v1/users', { name: 'Nul', email: 'nul@acme.test', 'x\u0000': 1 }, '/body/x\u0000'],
    ];
    for (const [url, body, path] of bodies) {
      const res = problem(await f.owner.post(url, body), 400, 'validation_failed');
      assert.equal(res.errors[0].path, path, url);
    }
    assert.equal(await countNamed('nul'), 0);
    for (const url of [
      '/v1/teams/%00',
      '/v1/tasks/%00',
      '/v1/projects/a%00b',
      '/v1/tasks/search?name=a%00',
    ]) {
      assert.match(problem(await f.owner.get(url), 400, 'validation_failed').detail, /NUL/, url);
    }
  });

  test('in a batch, such an entry fails alone', async () => {
    const res = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [
        { name: 'Batch clean one', teamId: eng.id },
        { name: 'Batch \u0000 dirty', teamId: eng.id },
        { id: '2147483648', name: 'Batch overflow' },
        { name: 'Batch clean two', teamId: eng.id },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.succeeded.map((t: { name: string }) => t.name),
      ['Batch clean one', 'Batch clean two'],
    );
    assert.deepEqual(
      res.body.failed.map((x: { code: string; index: number }) => [x.index, x.code]),
      [
        [1, 'validation_failed'],
        [2, 'not_found'],
      ],
    );
    assert.match(res.body.failed[0].error, /^\/name contains a NUL character/);
  });
});

describe('3. numbers past a column are simply not found', () => {
  test('a publicId past 2^31 - 1 is 404, on every route that takes one', async () => {
    for (const id of ['2147483648', '99999999999', '9'.repeat(30)]) {
      problem(await f.owner.get(`/v1/tasks/${id}`), 404, 'not_found');
      problem(await f.owner.delete(`/v1/tasks/${id}`), 404, 'not_found');
      problem(await f.owner.post(`/v1/tasks/${id}/restore`), 404, 'not_found');
      problem(await f.owner.post('/v1/tasks', { id, name: 'x' }), 404, 'not_found');
      problem(await f.owner.get(`/v1/projects/${id}`), 404, 'not_found');
    }
  });
});

describe('4. deeply nested descriptions', () => {
  test('nesting past the bound is 400, not a stack overflow, and saves nothing', async () => {
    const deep = [
      '>'.repeat(5000),
      '- '.repeat(5000),
      '1. '.repeat(3000),
      `${'<div>'.repeat(5000)}x`,
      { html: '<blockquote>'.repeat(5000) },
      { markdown: '> '.repeat(101) },
    ];
    for (const description of deep) {
      const res = await f.owner.post('/v1/tasks', { name: 'Deep task', teamId: eng.id, description });
      assert.match(
        problem(res, 400, 'validation_failed').detail,
        /^\/body\/description(\/html|\/markdown)?: nests deeper than 100/,
      );
    }
    assert.equal(await countNamed('deep'), 0);
    const fine = await create({ name: 'Shallow task', description: `${'> '.repeat(20)}quote` });
    assert.match(fine.description.html, /<blockquote>/);
  });
});

describe('9. updating a project keeps the teams the caller cannot see', () => {
  test("a member's teamIds replace only the teams it sees", async () => {
    const member = await f.newUser('member', 'Partial Sight');
    const pub = (await f.owner.post('/v1/teams', { name: 'Public Bench', publicId: 'PUB' })).body;
    const sec = (
      await f.owner.post('/v1/teams', { name: 'Secret Bench', publicId: 'SEC', privacy: 'private' })
    ).body;
    const other = (await f.owner.post('/v1/teams', { name: 'Other Bench', publicId: 'OTH' })).body;
    const mixed = (await f.owner.post('/v1/projects', { name: 'Mixed Bag', teamIds: [pub.id, sec.id] })).body;
    const res = await member.api.post('/v1/projects?expand=none', { id: mixed.id, teamIds: [other.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.teamIds, [other.id]);
    const seen = await f.owner.get(`/v1/projects/${mixed.id}?expand=none`);
    assert.deepEqual(seen.body.teamIds, [other.id, sec.id]);
  });
});

describe('10. a workspace keeps an owner', () => {
  test('the last owner cannot demote themselves; an owner makes another owner, who then may', async () => {
    const me = f.ws.user.id;
    const last = problem(await f.owner.post('/v1/users', { id: me, role: 'admin' }), 409, 'conflict');
    assert.match(last.detail, /last owner/);
    assert.equal((await f.owner.get('/v1/me')).body.role, 'owner');
    const second = await f.newUser('member', 'Second Owner');
    const promoted = await f.owner.post('/v1/users', { id: second.id, role: 'owner' });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.role, 'owner');
    const admin = await f.newUser('admin', 'Some Admin');
    problem(await admin.api.post('/v1/users', { id: second.id, role: 'member' }), 403, 'forbidden');
    const stepDown = await second.api.post('/v1/users', { id: second.id.toUpperCase(), role: 'admin' });
    assert.equal(stepDown.status, 200, JSON.stringify(stepDown.body));
    problem(await f.owner.post('/v1/users', { id: me, role: 'member' }), 409, 'conflict');
  });
});

describe('11. ids are case-insensitive everywhere', () => {
  test('an upper-case token id revokes the token; upper-case body and query ids work', async () => {
    const made = await f.owner.post('/v1/api-tokens', { name: 'Shouting' });
    const revoked = await f.owner.delete(`/v1/api-tokens/${made.body.id.toUpperCase()}`);
    assert.equal(revoked.status, 204);
    const after = await f.anonymous.get('/v1/me', { authorization: `Bearer ${made.body.token}` });
    problem(after, 401, 'unauthenticated');
    const task = await create({
      name: 'Upper ids',
      teamId: eng.id.toUpperCase(),
      assignedToId: f.ws.user.id.toUpperCase(),
    });
    assert.equal(task.teamId, eng.id);
    assert.equal(task.assignedToId, f.ws.user.id);
    const project = await f.owner.post('/v1/projects?expand=none', {
      name: 'Upper project',
      teamId: eng.id.toUpperCase(),
    });
    assert.equal(project.status, 201, JSON.stringify(project.body));
    assert.deepEqual(project.body.teamIds, [eng.id]);
    const found = await f.owner.get(`/v1/tasks/search?expand=none&teamId=${eng.id.toUpperCase()}&name=upper`);
    assert.equal(found.body.total, 1);
    const events = await eventsOfEntity(f.owner, task.id.toUpperCase());
    assert.deepEqual(
      events.map((e: { type: string }) => e.type),
      ['task.created'],
    );
  });

  test('a UUID in another spelling (urn:uuid:, braces, no hyphens) is a 400, on both databases', async () => {
    // PostgreSQL's uuid input takes some of these; the API takes the plain form only, the same on both.
    for (const spelling of [`urn:uuid:${eng.id}`, `{${eng.id}}`, eng.id.replaceAll('-', '')]) {
      const made = await f.owner.post('/v1/tasks', { name: 'Spelled', teamId: spelling });
      assert.equal(problem(made, 400, 'validation_failed').errors[0].path, '/body/teamId');
      const listed = await f.owner.get(`/v1/tasks/search?teamId=${encodeURIComponent(spelling)}`);
      assert.equal(problem(listed, 400, 'validation_failed').errors[0].path, '/query/teamId');
      const fed = await f.owner.get(`/v1/events?entityId=${encodeURIComponent(spelling)}`);
      assert.equal(problem(fed, 400, 'validation_failed').errors[0].path, '/query/entityId');
      problem(await f.owner.get(`/v1/tasks/${encodeURIComponent(spelling)}`), 404, 'not_found');
    }
  });
});

describe("12. a status list names only the team's own statuses", () => {
  test("another workspace's status id is 400, and a status in use says so without a count", async () => {
    const other = await f.newWorkspace('Foreign');
    const theirs = (await other.owner.post('/v1/teams', { name: 'Theirs' })).body;
    const statuses = (await other.owner.get(`/v1/teams/${theirs.id}?expand=taskStatuses`)).body.taskStatuses;
    const foreign = await f.owner.post('/v1/teams', {
      id: eng.id,
      taskStatuses: [{ id: statuses[0].id, name: 'Stolen', stage: 'backlog' }],
    });
    assert.equal(problem(foreign, 400, 'validation_failed').errors[0].path, '/body/taskStatuses/0/id');
    await create({ name: 'Keeps a status busy', visibility: 'private' });
    const mine = (await f.owner.get(`/v1/teams/${eng.id}?expand=taskStatuses`)).body.taskStatuses;
    const busy = mine.find((s: { stage: string }) => s.stage === 'unstarted');
    const rest = mine.filter((s: { id: string }) => s.id !== busy.id);
    const removal = await f.owner.post('/v1/teams', { id: eng.id, taskStatuses: rest });
    assert.equal(
      problem(removal, 409, 'conflict').detail,
      `Status "${busy.name}" is in use by tasks; move them to another status first`,
    );
  });
});

describe('13. cursors are opaque', () => {
  test('a cursor decodes to nothing readable', async () => {
    for (let i = 0; i < 3; i++) await create({ name: `Opaque ${i}` });
    const page = (await f.owner.get('/v1/tasks/search?expand=none&name=opaque&limit=1')).body;
    assert.match(page.nextCursor, /^[A-Za-z0-9_-]+$/, 'one opaque token, no readable payload part');
    const decoded = Buffer.from(page.nextCursor, 'base64url').toString('utf8');
    assert.throws(() => JSON.parse(decoded), 'not JSON in the clear');
    const again = (await f.owner.get('/v1/tasks/search?expand=none&name=opaque&limit=1')).body;
    assert.notEqual(again.nextCursor, page.nextCursor, 'the same position never gives the same cursor');
    const next = await f.owner.get(
      `/v1/tasks/search?expand=none&name=opaque&limit=1&cursor=${page.nextCursor}`,
    );
    assert.equal(next.status, 200);
    assert.notEqual(next.body.data[0].id, page.data[0].id);
  });
});

describe('14. people on an item one can see are visible on that item', () => {
  test('a guest sees an assignee outside its directory on a task it sees, and finds it by that name', async () => {
    const guest = await f.newUser('guest', 'Gina Guest');
    const stranger = await f.newUser('member', 'Stella Stranger');
    const shared = (await f.owner.post('/v1/teams', { name: 'Guest Room', members: [{ id: guest.id }] }))
      .body;
    const task = await create({ name: 'Assigned elsewhere', teamId: shared.id, assignedToId: stranger.id });
    const directory = (await guest.api.get('/v1/users?limit=100')).body.data.map((u: { id: string }) => u.id);
    assert.ok(!directory.includes(stranger.id), 'the directory lists only the people of its groups');
    const seen = await guest.api.get(`/v1/tasks/${task.id}?expand=assignee`);
    assert.equal(seen.status, 200);
    assert.deepEqual([seen.body.assignee.id, seen.body.assignee.name], [stranger.id, 'Stella Stranger']);
    const found = await guest.api.get('/v1/tasks/search?expand=none&assigneeName=stella');
    assert.deepEqual(
      found.body.data.map((t: { id: string }) => t.id),
      [task.id],
    );
  });
});
