import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { advanceClock, now } from '../../clock.ts';
import { inTransaction } from '../../context.ts';
import { type Client, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';
import * as tasks from '../tasks/service.ts';
import { workspaceOwner } from '../workspaces/service.ts';

const f = await setup();
const member = await f.newUser('member', 'Mona Member');
const eng = (await f.owner.post('/v1/teams', { name: 'Engineering', members: [{ id: member.id }] })).body;
const vault = (await f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private' })).body;

interface Item {
  id: string;
  type: string;
  createdAt: string;
  workspaceId: string;
  data: { id: string } & Record<string, unknown>;
}

/** Every feed item after `after` (a cursor), walking pages of `limit`; and the last position. */
async function walk(
  as: Client,
  qs = '',
  start?: string,
  limit = 3,
): Promise<{ items: Item[]; cursor: string }> {
  const items: Item[] = [];
  let cursor = start;
  for (;;) {
    const res = await as.get(`/v1/events?limit=${limit}${qs}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(typeof res.body.nextCursor, 'string');
    items.push(...res.body.data);
    cursor = res.body.nextCursor;
    if (!res.body.hasMore) return { items, cursor: cursor! };
  }
}

/**
 * walk() from `start` until it finds at least `want` items (up to 5 s). On PostgreSQL the feed shows an
 * event once every transaction older than it has ended, in the whole cluster (docs/integrations.md): on
 * a server that other work shares, what was just written may take a moment to appear.
 */
async function walkFor(
  want: number,
  as: Client,
  qs = '',
  start?: string,
): Promise<{ items: Item[]; cursor: string }> {
  const until = Date.now() + 5000;
  for (;;) {
    const page = await walk(as, qs, start);
    if (page.items.length >= want || Date.now() > until) return page;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const { cursor: origin } = await walk(f.owner);

describe('GET /v1/events', () => {
  test('every committed change once, oldest first, each exactly as GET with expand=all shows it', async () => {
    const { cursor: from } = await walk(f.owner);
    const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Ship it', teamId: eng.id })).body;
    await f.owner.post('/v1/tasks', { id: task.id, name: 'Ship it now' });
    await f.owner.delete(`/v1/tasks/${task.id}`);
    await f.owner.post(`/v1/tasks/${task.id}/restore`);
    const doc = (await f.owner.post('/v1/documents?expand=none', { name: 'Plan', teamId: eng.id })).body;
    const post = (await f.owner.post('/v1/posts', { entityType: 'task', entityId: task.id, content: 'Hi' }))
      .body;
    const { items } = await walkFor(6, f.owner, '', from);
    assert.deepEqual(
      items.map((e) => [e.type, e.data.id]),
      [
        ['task.created', task.id],
        ['task.updated', task.id],
        ['task.deleted', task.id],
        ['task.restored', task.id],
        ['document.created', doc.id],
        ['post.created', post.id],
      ],
    );
    const first = items[0]!;
    assert.deepEqual(Object.keys(first).sort(), ['createdAt', 'data', 'id', 'type', 'workspaceId']);
    assert.match(first.id, UUID_PATTERN);
    assert.equal(first.workspaceId, f.ws.workspace.id);
    assert.equal(new Set(items.map((e) => e.id)).size, items.length);
    // data is the thing as it is now (read at delivery time), with every expansion and the markdown.
    const full = 'expand=all&includeMarkdown=true';
    assert.deepEqual(first.data, (await f.owner.get(`/v1/tasks/${task.id}?${full}`)).body);
    assert.deepEqual(items[4]!.data, (await f.owner.get(`/v1/documents/${doc.id}?${full}`)).body);
    assert.deepEqual(items[5]!.data, (await f.owner.get(`/v1/posts/${post.id}?expand=all`)).body);
  });

  test('a rolled-back change never appears; a batch entry that failed emits nothing', async () => {
    const { cursor: from } = await walk(f.owner);
    const auth = (await workspaceOwner(f.database, f.ws.workspace.id))!;
    await assert.rejects(
      inTransaction(f.database, auth, async (ctx) => {
        await tasks.upsertTask(ctx, { name: 'Never', teamId: eng.id });
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const batch = await f.owner.post('/v1/tasks/batch?expand=none', {
      tasks: [
        { name: 'Kept', teamId: eng.id },
        { name: 'Refused', teamId: '00000000-0000-4000-8000-000000000000' },
      ],
    });
    assert.equal(batch.status, 200);
    assert.equal(batch.body.failed.length, 1);
    const { items } = await walkFor(1, f.owner, '', from);
    assert.deepEqual(
      items.map((e) => [e.type, e.data.name]),
      [['task.created', 'Kept']],
    );
  });

  test('what the reader cannot see is never in it, and nothing crosses workspaces', async () => {
    const { cursor: from } = await walk(member.api);
    const { cursor: ownerFrom } = await walk(f.owner);
    const other = await f.newWorkspace('Elsewhere');
    const { cursor: otherFrom } = await walk(other.owner);
    const open = (await f.owner.post('/v1/tasks?expand=none', { name: 'Open', teamId: eng.id })).body;
    await f.owner.post('/v1/tasks?expand=none', { name: 'Secret', teamId: vault.id });
    await f.owner.post('/v1/documents?expand=none', { name: 'Secret doc', teamId: vault.id });
    const theirs = (await other.owner.post('/v1/teams', { name: 'Theirs' })).body;
    await walkFor(3, f.owner, '', ownerFrom);
    const seen = (await walk(member.api, '', from)).items.map((e) => e.data.name);
    assert.deepEqual(seen, ['Open']);
    assert.equal((await walk(member.api, '', from)).items[0]!.data.id, open.id);
    assert.deepEqual(
      (await walk(f.owner, '', ownerFrom)).items.map((e) => e.data.name),
      ['Open', 'Secret', 'Secret doc'],
    );
    assert.deepEqual(
      (await walkFor(1, other.owner, '', otherFrom)).items.map((e) => [e.type, e.data.id]),
      [['team.created', theirs.id]],
    );
  });

  test('a cursor walk while writes go on misses nothing and repeats nothing', async () => {
    const { cursor: from } = await walk(f.owner);
    const made: string[] = [];
    const seen: Item[] = [];
    let cursor = from;
    const writes = (async () => {
      for (let round = 0; round < 6; round++) {
        const batch = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            f.owner.post('/v1/tasks?expand=none', { name: `Walk ${round}.${i}`, teamId: eng.id }),
          ),
        );
        made.push(...batch.map((r) => r.body.id));
      }
    })();
    let done = false;
    void writes.finally(() => {
      done = true;
    });
    for (let i = 0; !done && i < 1000; i++) {
      const page = await walk(f.owner, '&type=task.created', cursor, 2);
      seen.push(...page.items);
      cursor = page.cursor;
    }
    await writes;
    const until = Date.now() + 5000;
    do {
      const page = await walk(f.owner, '&type=task.created', cursor, 2);
      seen.push(...page.items);
      cursor = page.cursor;
    } while (seen.length < made.length && Date.now() < until);
    assert.deepEqual(seen.map((e) => e.data.id).sort(), [...made].sort());
  });

  test('type filters (repeated or comma-separated); after an event id or a cursor', async () => {
    const { cursor: from } = await walk(f.owner);
    const team = (await f.owner.post('/v1/teams', { name: 'Filters' })).body;
    const task = (await f.owner.post('/v1/tasks?expand=none', { name: 'Filtered', teamId: team.id })).body;
    await f.owner.post('/v1/tasks', { id: task.id, name: 'Filtered again' });
    await walkFor(3, f.owner, '', from);
    const types = async (qs: string) => (await walk(f.owner, qs, from)).items.map((e) => e.type);
    assert.deepEqual(await types('&type=task.updated'), ['task.updated']);
    assert.deepEqual(await types('&type=team.created&type=task.updated'), ['team.created', 'task.updated']);
    assert.deepEqual(await types('&type=team.created,task.created'), ['team.created', 'task.created']);
    const all = (await walk(f.owner, '', from)).items;
    const res = await f.owner.get(`/v1/events?after=${all[0]!.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((e: Item) => e.type),
      ['task.created', 'task.updated'],
    );
    const byCursor = await f.owner.get(`/v1/events?after=${from}`);
    assert.deepEqual(
      byCursor.body.data.map((e: Item) => e.id),
      all.map((e) => e.id),
    );
    // With nothing new, the position stays where it is, and hasMore is false.
    const end = await f.owner.get(`/v1/events?cursor=${res.body.nextCursor}`);
    assert.deepEqual([end.body.data, end.body.hasMore], [[], false]);
  });

  test('bad input is a 400 naming the parameter', async () => {
    problem(await f.owner.get('/v1/events?type=task.exploded'), 400, 'validation_failed');
    const unknown = problem(
      await f.owner.get('/v1/events?after=00000000-0000-4000-8000-000000000000'),
      400,
      'validation_failed',
    );
    assert.equal(unknown.errors[0].path, '/query/after');
    problem(await f.owner.get(`/v1/events?after=${origin}&cursor=${origin}`), 400, 'validation_failed');
    problem(await f.owner.get('/v1/events?cursor=abc'), 400, 'invalid_cursor');
    // A position holds for any filter and reader of its workspace, and only there.
    assert.equal((await f.owner.get(`/v1/events?type=task.created&cursor=${origin}`)).status, 200);
    assert.equal((await member.api.get(`/v1/events?cursor=${origin}`)).status, 200);
    const other = await f.newWorkspace('Cursors');
    problem(await other.owner.get(`/v1/events?cursor=${origin}`), 400, 'invalid_cursor');
    problem(await f.owner.get('/v1/events?limit=101'), 400, 'validation_failed');
    problem(await f.anonymous.get('/v1/events'), 401, 'unauthenticated');
  });
});

describe('sync filters (extensions)', () => {
  const names = (res: { status: number; body: { data: { name: string }[] } }) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.map((x) => x.name).sort();
  };

  test('task search: statusId, assignedToId, labelId and updatedSince, with AND, with and without text', async () => {
    const team = (
      await f.owner.post('/v1/teams', {
        name: 'Sync',
        members: [{ id: member.id }],
        taskLabels: [{ name: 'Bug' }],
      })
    ).body;
    const started = team.taskStatuses.find((s: { stage: string }) => s.stage === 'started').id;
    const bug = team.taskLabels[0].id;
    const mk = (body: Record<string, unknown>) =>
      f.owner.post('/v1/tasks?expand=none', { teamId: team.id, ...body });
    await mk({ name: 'Sync old' });
    advanceClock(15);
    const since = now();
    advanceClock(15);
    await mk({ name: 'Sync started', statusId: started });
    await mk({ name: 'Sync mine', assignedToId: member.id, labelIds: [bug] });
    await mk({ name: 'Sync both', statusId: started, assignedToId: member.id });
    const q = async (qs: string) =>
      names(await f.owner.get(`/v1/tasks/search?expand=none&teamId=${team.id}&${qs}`));
    assert.deepEqual(await q(`statusId=${started}`), ['Sync both', 'Sync started']);
    assert.deepEqual(await q(`assignedToId=${member.id}`), ['Sync both', 'Sync mine']);
    assert.deepEqual(await q(`labelId=${bug}`), ['Sync mine']);
    assert.deepEqual(await q(`statusId=${started}&assignedToId=${member.id}`), ['Sync both']);
    assert.deepEqual(await q(`updatedSince=${since}`), ['Sync both', 'Sync mine', 'Sync started']);
    // Text and a filter together (SQLite answers text from its FTS5 index, then joins the filter).
    assert.deepEqual(await q(`name=sync&assignedToId=${member.id}`), ['Sync both', 'Sync mine']);
    assert.deepEqual(await q(`name=sync&labelId=${bug}&updatedSince=${since}`), ['Sync mine']);
    // Page by page too: the second page of a text search with a filter starts after a cursor.
    const page = (cursor?: string) =>
      f.owner.get(
        `/v1/tasks/search?expand=none&teamId=${team.id}&name=sync&assignedToId=${member.id}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
    const first = await page();
    const second = await page(first.body.nextCursor);
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.deepEqual(names({ status: 200, body: { data: [...first.body.data, ...second.body.data] } }), [
      'Sync both',
      'Sync mine',
    ]);
    const total = (await f.owner.get(`/v1/tasks/search?teamId=${team.id}&name=sync&statusId=${started}`)).body
      .total;
    assert.equal(total, 2);
    // Another offset, the same instant.
    const offset = new Date(Date.parse(since) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    assert.deepEqual(await q(`updatedSince=${encodeURIComponent(offset)}`), [
      'Sync both',
      'Sync mine',
      'Sync started',
    ]);
    // An update moves a task into the window.
    const old = (await f.owner.get(`/v1/tasks/search?expand=none&teamId=${team.id}&name=old`)).body.data[0];
    await f.owner.post('/v1/tasks', { id: old.id, priority: true });
    assert.deepEqual(await q(`updatedSince=${since}`), [
      'Sync both',
      'Sync mine',
      'Sync old',
      'Sync started',
    ]);
    problem(await f.owner.get('/v1/tasks/search?updatedSince=yesterday'), 400, 'validation_failed');
    problem(await f.owner.get('/v1/tasks/search?statusId=nope'), 400, 'validation_failed');
  });

  test('project and document search: updatedSince', async () => {
    await f.owner.post('/v1/projects', { name: 'Sync project old', teamId: eng.id });
    await f.owner.post('/v1/documents', { name: 'Sync doc old', teamId: eng.id });
    advanceClock(15);
    const since = now();
    advanceClock(15);
    await f.owner.post('/v1/projects', { name: 'Sync project new', teamId: eng.id });
    await f.owner.post('/v1/documents', { name: 'Sync doc new', teamId: eng.id });
    assert.deepEqual(names(await f.owner.get(`/v1/projects/search?name=sync&updatedSince=${since}`)), [
      'Sync project new',
    ]);
    assert.deepEqual(names(await f.owner.get(`/v1/documents/search?name=sync&updatedSince=${since}`)), [
      'Sync doc new',
    ]);
    assert.deepEqual(names(await f.owner.get(`/v1/documents/search?updatedSince=${since}`)), [
      'Sync doc new',
    ]);
    problem(
      await f.owner.get('/v1/projects/search?updatedSince=2026-13-01T00:00:00Z'),
      400,
      'validation_failed',
    );
    problem(await f.owner.get('/v1/documents/search?updatedSince=1'), 400, 'validation_failed');
  });
});

test("entityId: one resource's events in stream order, with the feed's filters and visibility", async () => {
  const { cursor: start } = await walk(f.owner, '', origin);
  const a = (await f.owner.post('/v1/tasks', { name: 'History A', teamId: eng.id })).body;
  const b = (await f.owner.post('/v1/tasks', { name: 'History B', teamId: eng.id })).body;
  await f.owner.post('/v1/tasks', { id: a.id, name: 'History A, renamed' });
  await f.owner.post('/v1/tasks', { id: b.id, name: 'History B, renamed' });
  await f.owner.delete(`/v1/tasks/${a.id}`);

  const mine = await walkFor(3, f.owner, `&entityId=${a.id}`, start);
  assert.deepEqual(
    mine.items.map((e) => [e.type, e.data.id]),
    [
      ['task.created', a.id],
      ['task.updated', a.id],
      ['task.deleted', a.id],
    ],
  );
  const updates = await walk(f.owner, `&entityId=${a.id}&type=task.updated`, start);
  assert.deepEqual(
    updates.items.map((e) => e.type),
    ['task.updated'],
  );
  // Its cursor is a place in the whole stream: the unfiltered feed carries on from it.
  const rest = await walk(f.owner, '', mine.cursor);
  assert.deepEqual(rest.items, []);

  // A task the reader cannot see has no events for them.
  const secret = (await f.owner.post('/v1/tasks', { name: 'Vault history', teamId: vault.id })).body;
  await walkFor(1, f.owner, `&entityId=${secret.id}`, start);
  assert.deepEqual((await walk(member.api, `&entityId=${secret.id}`, start)).items, []);

  const bad = problem(await f.owner.get('/v1/events?entityId=not-a-uuid'), 400, 'validation_failed');
  assert.deepEqual(bad.errors, [{ path: '/query/entityId', message: 'must be a UUID' }]);
});
