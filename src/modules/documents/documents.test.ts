import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, ISO_PATTERN, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
const vault = (await f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private' })).body;
const area = (await f.owner.post('/v1/areas', { name: 'Marketing' })).body;

async function create(as: Client, body: Record<string, unknown>) {
  const res = await as.post('/v1/documents?expand=none', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function walk(as: Client, qs: string): Promise<{ names: string[]; total: number }> {
  const names: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const res = await as.get(
      `/v1/documents/search?expand=none&limit=2&${qs}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    total = res.body.total;
    names.push(...res.body.data.map((d: { name: string }) => d.name));
    cursor = res.body.nextCursor;
  } while (cursor);
  return { names: names.sort(), total };
}

describe('POST /v1/documents', () => {
  test('creates with every field, and the team expansion', async () => {
    const res = await f.owner.post('/v1/documents?includeMarkdown=true', {
      name: '  Release Checklist ',
      teamId: eng.id.toUpperCase(),
      description: '# Steps\n\n1. Tag',
      visibility: 'workspace',
    });
    assert.equal(res.status, 201);
    const d = res.body;
    assert.match(d.id, UUID_PATTERN);
    assert.match(d.createdAt, ISO_PATTERN);
    assert.deepEqual(d, {
      id: d.id,
      publicId: d.publicId,
      name: 'Release Checklist',
      slug: 'release-checklist',
      visibility: 'workspace',
      createdById: f.ws.user.id,
      lastEditedById: f.ws.user.id,
      lastEditedAt: d.createdAt,
      workspaceId: f.ws.workspace.id,
      teamId: eng.id,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
      deletedAt: null,
      deletedById: null,
      description: { html: '<h1>Steps</h1>\n<ol>\n<li>Tag</li>\n</ol>', markdown: '# Steps\n\n1. Tag' },
      team: { id: eng.id, name: 'Engineering', publicId: 'ENG' },
    });
    assert.match(d.publicId, /^\d+$/);
    const again = await create(f.owner, { name: 'Release checklist', teamId: eng.id });
    assert.equal(again.slug, 'release-checklist-2');
    assert.deepEqual(again.description, { html: '' });
  });

  test('an update moves lastEdited on content changes only, and keeps the slug stem', async () => {
    const d = await create(f.owner, { name: 'Runbook', teamId: eng.id });
    const moved = await member.api.post('/v1/documents?expand=none', {
      id: d.publicId,
      visibility: 'private',
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.lastEditedById, f.ws.user.id);
    assert.equal(moved.body.lastEditedAt, d.lastEditedAt);
    // The member made it private but did not create it: only its creator (and owners) see it now.
    problem(await member.api.get(`/v1/documents/${d.id}`), 404, 'not_found');
    const edited = await f.owner.post('/v1/documents?expand=none', {
      id: d.id,
      name: 'RUNBOOK',
      visibility: 'workspace',
    });
    assert.equal(edited.status, 200);
    const byMember = await member.api.post('/v1/documents?expand=none', {
      id: d.id,
      description: 'Page **on-call**',
    });
    assert.equal(byMember.body.lastEditedById, member.id);
    assert.ok(byMember.body.lastEditedAt > d.lastEditedAt);
    assert.equal(byMember.body.slug, 'runbook');
    assert.equal(byMember.body.name, 'RUNBOOK');
  });

  test('bad input is a 400 that changes nothing', async () => {
    const before = (await walk(f.owner, 'includeDeleted=true')).total;
    problem(await f.owner.post('/v1/documents', { name: 'No team' }), 400, 'validation_failed');
    const areaTeam = problem(
      await f.owner.post('/v1/documents', { name: 'x', teamId: area.id }),
      400,
      'validation_failed',
    );
    assert.equal(areaTeam.errors[0].path, '/body/teamId');
    problem(
      await f.owner.post('/v1/documents', { name: 'x', teamId: eng.id, colour: 'red' }),
      400,
      'validation_failed',
    );
    problem(
      await f.owner.post('/v1/documents', { name: 'x', teamId: eng.id, visibility: 'secret' }),
      400,
      'validation_failed',
    );
    problem(await f.owner.post('/v1/documents', { name: '  ', teamId: eng.id }), 400, 'validation_failed');
    problem(
      await f.owner.post('/v1/documents', { name: 'x\u0000', teamId: eng.id }),
      400,
      'validation_failed',
    );
    const other = await f.newWorkspace('Elsewhere');
    const theirTeam = (await other.owner.post('/v1/teams', { name: 'Theirs' })).body;
    problem(
      await f.owner.post('/v1/documents', { name: 'x', teamId: theirTeam.id }),
      400,
      'validation_failed',
    );
    const theirs = await create(other.owner, { name: 'Their doc', teamId: theirTeam.id });
    problem(await f.owner.post('/v1/documents', { id: theirs.id, name: 'Mine now' }), 404, 'not_found');
    problem(await f.owner.get(`/v1/documents/${theirs.id}`), 404, 'not_found');
    problem(await f.owner.delete(`/v1/documents/${theirs.id}`), 404, 'not_found');
    assert.equal((await walk(f.owner, 'includeDeleted=true')).total, before);
    assert.equal((await other.owner.get(`/v1/documents/${theirs.id}`)).body.name, 'Their doc');
  });
});

describe('delete and restore', () => {
  test('soft delete (twice 204), read with deletedAt, 409 deleted on update, restore once', async () => {
    const d = await create(member.api, { name: 'Old notes', teamId: eng.id });
    const del = await member.api.delete(`/v1/documents/${d.publicId}`);
    assert.equal(del.status, 204);
    assert.equal(del.body, '');
    assert.equal((await f.owner.delete(`/v1/documents/${d.id}`)).status, 204);
    const read = await f.owner.get(`/v1/documents/${d.id}`);
    assert.match(read.body.deletedAt, ISO_PATTERN);
    assert.equal(read.body.deletedById, member.id);
    problem(await f.owner.post('/v1/documents', { id: d.id, name: 'Revived' }), 409, 'deleted');
    assert.deepEqual((await walk(f.owner, 'name=old')).names, []);
    assert.deepEqual((await walk(f.owner, 'name=old&includeDeleted=true')).names, ['Old notes']);
    const restored = await f.owner.post(`/v1/documents/${d.id}/restore?expand=none`);
    assert.equal(restored.status, 200);
    assert.deepEqual(
      [restored.body.deletedAt, restored.body.deletedById, restored.body.name],
      [null, null, 'Old notes'],
    );
    problem(await f.owner.post(`/v1/documents/${d.id}/restore`), 409, 'not_deleted');
    problem(await f.owner.post('/v1/documents/999999/restore'), 404, 'not_found');
  });
});

describe('GET /v1/documents/search', () => {
  test('text fields, match modes, team filters and totals', async () => {
    const ops = (await f.owner.post('/v1/teams', { name: 'Operations' })).body;
    await create(f.owner, { name: 'Zebra handbook', teamId: ops.id, description: 'Stripes and **care**' });
    await create(f.owner, { name: 'Zebra feeding', teamId: eng.id, description: 'Hay' });
    await create(f.owner, { name: 'Lion feeding', teamId: ops.id, description: 'Meat and care' });
    assert.deepEqual(await walk(f.owner, 'name=zeb'), {
      names: ['Zebra feeding', 'Zebra handbook'],
      total: 2,
    });
    assert.deepEqual(await walk(f.owner, 'name=zebra&description=care'), {
      names: ['Zebra handbook'],
      total: 1,
    });
    assert.deepEqual(await walk(f.owner, 'name=zebra&description=care&matchMode=any'), {
      names: ['Lion feeding', 'Zebra feeding', 'Zebra handbook'],
      total: 3,
    });
    assert.deepEqual(await walk(f.owner, 'name=feeding&teamName=operat'), {
      names: ['Lion feeding'],
      total: 1,
    });
    assert.deepEqual(await walk(f.owner, `name=feeding&teamId=${eng.id}`), {
      names: ['Zebra feeding'],
      total: 1,
    });
    // Relevance first: every-field matches come before some-field matches.
    const any = await f.owner.get(
      '/v1/documents/search?expand=none&name=zebra&description=care&matchMode=any',
    );
    assert.equal(any.body.data[0].name, 'Zebra handbook');
    const md = await f.owner.get('/v1/documents/search?name=lion&includeMarkdown=true&expand=team');
    assert.deepEqual(md.body.data[0].description, {
      html: '<p>Meat and care</p>',
      markdown: 'Meat and care',
    });
    assert.deepEqual(md.body.data[0].team, { id: ops.id, name: 'Operations', publicId: 'OPE' });
    const none = await f.owner.get('/v1/documents/search?name=lion&expand=none');
    assert.equal('team' in none.body.data[0], false);
    problem(await f.owner.get('/v1/documents/search?expand=owner'), 400, 'validation_failed');
    problem(await f.owner.get('/v1/documents/search?nmae=x'), 400, 'validation_failed');
    const cursor = (await f.owner.get('/v1/documents/search?name=feeding&limit=1')).body.nextCursor;
    problem(await f.owner.get(`/v1/documents/search?name=zebra&cursor=${cursor}`), 400, 'invalid_cursor');
  });

  test('private documents and private teams: get, search, totals and filters', async () => {
    await create(f.owner, { name: 'Kestrel plan', teamId: vault.id });
    await create(f.owner, { name: 'Kestrel diary', teamId: eng.id, visibility: 'private' });
    const mine = await create(member.api, { name: 'Kestrel sketch', teamId: eng.id, visibility: 'private' });
    await create(f.owner, { name: 'Kestrel open', teamId: eng.id });
    assert.deepEqual(await walk(member.api, 'name=kestrel'), {
      names: ['Kestrel open', 'Kestrel sketch'],
      total: 2,
    });
    assert.deepEqual(await walk(member.api, 'teamName=vault'), { names: [], total: 0 });
    assert.deepEqual(await walk(member.api, `name=kestrel&teamId=${vault.id}`), { names: [], total: 0 });
    assert.deepEqual(await walk(f.owner, 'name=kestrel'), {
      names: ['Kestrel diary', 'Kestrel open', 'Kestrel plan', 'Kestrel sketch'],
      total: 4,
    });
    const every = await walk(member.api, 'includeDeleted=true');
    assert.equal(
      every.names.some((n) => n === 'Kestrel plan' || n === 'Kestrel diary'),
      false,
    );
    assert.equal(every.total, every.names.length);
    const hidden = (await walk(f.owner, 'name=kestrel plan')).names;
    assert.deepEqual(hidden, ['Kestrel plan']);
    assert.equal((await f.owner.get(`/v1/documents/${mine.id}`)).status, 200);
    problem(
      await member.api.post('/v1/documents', { name: 'In the vault', teamId: vault.id }),
      400,
      'validation_failed',
    );
  });
});
