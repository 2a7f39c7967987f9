// GET /v1/events/stream through real HTTP (a stream never ends, which app.inject waits for): exact
// frames and shapes, filters, resuming with Last-Event-ID, reset past the retention, the private-team
// rule (also after a removal while connected), the per-user cap, heartbeats, and bad input.
//
// A negative check ("this event never came") makes a change the stream does carry afterwards, a
// marker: events arrive in stream order, so when the marker arrives, anything before it has too.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { advanceClock, now } from '../../clock.ts';
import { pruneEvents } from '../../events/prune.ts';
import { type Client, problem, setup, UUID_PATTERN } from '../../test/helpers.ts';
import { closeConnections, type Frame, openStream, type SseStream } from '../../test/sse.ts';

const f = await setup(undefined, { CAIRN_STREAM_MAX_PER_USER: '3', CAIRN_STREAM_HEARTBEAT_MS: '100' });
await f.app.listen({ host: '127.0.0.1', port: 0 });
const address = f.app.server.address() as { port: number };
const base = `http://127.0.0.1:${address.port}`;

const DAY = 86_400_000;
const open: SseStream[] = [];

/**
 * The id of the last event committed so far. Streams of these tests start after it: a stream
 * without a position starts at the end its server can read in order, which on PostgreSQL may lag
 * behind a change just committed (events/stream.ts settled: until every older transaction ended),
 * so it could repeat a change made just before it opened (never miss one made after).
 */
async function lastEvent(): Promise<string> {
  const row = await f.database.db
    .selectFrom('events')
    .select('id')
    .where('workspace_id', '=', f.ws.workspace.id)
    .orderBy('tx', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A stream from after the last event (or as `options` say; `fresh`: without a position). */
async function stream(
  token: string,
  options: { query?: string; lastEventId?: string; fresh?: boolean } = {},
) {
  const lastEventId = options.fresh ? undefined : (options.lastEventId ?? (await lastEvent()));
  const s = await openStream(base, token, { query: options.query, lastEventId });
  open.push(s);
  return s;
}
after(() => {
  for (const s of open) s.close();
});

const tokenOf = async (userId: string) =>
  (await f.owner.post('/v1/api-tokens', { name: 'stream', userId })).body.token as string;

interface Data {
  id: string;
  type: string;
  entityType: string;
  entityId: string;
  teamId: string | null;
  projectId: string | null;
}

/** The next event's type and data, its frame's id checked to be a position. */
async function nextData(s: SseStream): Promise<Data & { position: string; event: string }> {
  const frame: Frame = await s.nextEvent();
  assert.match(frame.id ?? '', /^[A-Za-z0-9_-]{20,}$/);
  const data = JSON.parse(frame.data!) as Data;
  assert.equal(frame.event, data.type);
  return { ...data, position: frame.id!, event: frame.event! };
}

/** The next `n` events as [type, entityId]. */
async function nextEvents(s: SseStream, n: number): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const d = await nextData(s);
    out.push([d.type, d.entityId]);
  }
  return out;
}

const ok = async (res: Promise<{ status: number; body: { id: string } }>) => {
  const r = await res;
  assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.body));
  return r.body as { id: string } & Record<string, unknown>;
};

const eng = await ok(f.owner.post('/v1/teams', { name: 'Engineering' }));
const ops = await ok(f.owner.post('/v1/teams', { name: 'Operations' }));
const task = (name: string, teamId = eng.id, extra: object = {}, as: Client = f.owner) =>
  ok(as.post('/v1/tasks?expand=none', { name, teamId, ...extra }));

describe('the live stream', () => {
  test('without a position, a stream carries what changes after it opened', async () => {
    const s = await stream(f.ws.token, { fresh: true });
    assert.equal(s.status, 200);
    const t = await task('After opening');
    // On PostgreSQL a change committed just before may come first (see lastEvent).
    let d = await nextData(s);
    while (d.entityId !== t.id) d = await nextData(s);
    assert.equal(d.type, 'task.created');
    s.close();
  });

  test('answers text/event-stream and sends each change with its exact shape', async () => {
    const s = await stream(f.ws.token);
    assert.equal(s.status, 200);
    assert.equal(s.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(s.headers.get('cache-control'), 'no-cache');
    assert.ok(s.headers.get('x-request-id'));
    assert.deepEqual((await s.next()).comments, ['stream open']);

    const project = await ok(f.owner.post('/v1/projects', { name: 'Launch', teamIds: [eng.id, ops.id] }));
    const t = await task('Write the plan', eng.id, { projectId: project.id });
    const doc = await ok(f.owner.post('/v1/documents', { name: 'Spec', teamId: ops.id }));
    const post = await ok(
      f.owner.post('/v1/posts', { entityType: 'task', entityId: t.id, content: 'On it' }),
    );
    await ok(f.owner.post(`/v1/tasks`, { id: t.id, name: 'Write the whole plan' }));

    const got = [];
    for (let i = 0; i < 5; i++) got.push(await nextData(s));
    const bare = got.map(({ position, event, id, ...rest }) => {
      assert.match(id, UUID_PATTERN);
      return rest;
    });
    assert.deepEqual(bare, [
      {
        type: 'project.created',
        entityType: 'project',
        entityId: project.id,
        teamId: eng.id,
        projectId: project.id,
      },
      { type: 'task.created', entityType: 'task', entityId: t.id, teamId: eng.id, projectId: project.id },
      { type: 'document.created', entityType: 'document', entityId: doc.id, teamId: ops.id, projectId: null },
      { type: 'post.created', entityType: 'post', entityId: post.id, teamId: eng.id, projectId: project.id },
      { type: 'task.updated', entityType: 'task', entityId: t.id, teamId: eng.id, projectId: project.id },
    ]);
    // The same events as the feed, and each SSE id is a feed position: after the first, the rest.
    const feed = await f.owner.get(`/v1/events?cursor=${got[0]!.position}`);
    assert.equal(feed.status, 200);
    assert.deepEqual(
      feed.body.data.map((e: { id: string }) => e.id),
      got.slice(1).map((e) => e.id),
    );
    s.close();
  });

  test('filters: type (names and patterns), teamId, projectId', async () => {
    const project = await ok(f.owner.post('/v1/projects', { name: 'Filters', teamId: ops.id }));
    const byType = await stream(f.ws.token, { query: 'type=project.*,document.created' });
    const byTeam = await stream(f.ws.token, { query: `teamId=${ops.id}` });
    const byProject = await stream(f.ws.token, { query: `projectId=${project.id}&type=task.created` });
    for (const s of [byType, byTeam, byProject]) assert.equal(s.status, 200);

    const inEng = await task('Eng work');
    const inProject = await task('Project work', ops.id, { projectId: project.id });
    await ok(f.owner.post('/v1/projects', { id: project.id, name: 'Filters renamed' }));
    const doc = await ok(f.owner.post('/v1/documents', { name: 'Ops doc', teamId: ops.id }));
    const marker = await task('Marker', ops.id, { projectId: project.id });

    assert.deepEqual(await nextEvents(byType, 2), [
      ['project.updated', project.id],
      ['document.created', doc.id],
    ]);
    assert.deepEqual(await nextEvents(byTeam, 4), [
      ['task.created', inProject.id],
      ['project.updated', project.id],
      ['document.created', doc.id],
      ['task.created', marker.id],
    ]);
    assert.deepEqual(await nextEvents(byProject, 2), [
      ['task.created', inProject.id],
      ['task.created', marker.id],
    ]);
    assert.notEqual(inEng.id, marker.id);
    for (const s of [byType, byTeam, byProject]) s.close();
  });

  test('Last-Event-ID resumes: every missed event exactly once, then live ones', async () => {
    const s = await stream(f.ws.token);
    const first = await task('Before the cut');
    const seen = await nextData(s);
    assert.equal(seen.entityId, first.id);
    s.close();
    await s.ended;

    const missed = [await task('Missed 1'), await task('Missed 2', ops.id), await task('Missed 3')];
    const again = await stream(f.ws.token, { lastEventId: seen.position });
    assert.equal(again.status, 200);
    const live = await task('Live after resume');
    assert.deepEqual(await nextEvents(again, 4), [
      ...missed.map((t): [string, string] => ['task.created', t.id]),
      ['task.created', live.id],
    ]);
    const marker = await task('Marker');
    assert.deepEqual(await nextEvents(again, 1), [['task.created', marker.id]]);
    again.close();

    // `after` in the query (a first connection that has a position), and an event id as Last-Event-ID.
    const fromQuery = await stream(f.ws.token, {
      query: `after=${seen.position}&type=task.created`,
      fresh: true,
    });
    assert.deepEqual(
      (await nextEvents(fromQuery, 5)).map(([, id]) => id),
      [...missed.map((t) => t.id), live.id, marker.id],
    );
    fromQuery.close();
    const byEventId = await stream(f.ws.token, { lastEventId: seen.id, query: 'type=task.created' });
    assert.deepEqual((await nextEvents(byEventId, 1))[0], ['task.created', missed[0]!.id]);
    byEventId.close();
  });

  test('a member never gets events of a private team it is not in, nor after its removal', async () => {
    const member = await f.newUser('member');
    const token = await tokenOf(member.id);
    const secret = await ok(f.owner.post('/v1/teams', { name: 'Secret', privacy: 'private' }));
    const shared = await ok(
      f.owner.post('/v1/teams', {
        name: 'Shared secret',
        privacy: 'private',
        members: [{ id: member.id, role: 'member' }],
      }),
    );
    const s = await stream(token);
    const member_ = await stream(token, { query: `teamId=${secret.id}` });

    await task('Hidden', secret.id);
    await task('Private task', eng.id, { visibility: 'private' });
    const visible = await task('Visible', shared.id);
    assert.deepEqual(await nextEvents(s, 1), [['task.created', visible.id]]);

    // Removed while connected: from then on nothing of that team, not even its own team.updated.
    await ok(f.owner.post('/v1/teams', { id: shared.id, members: [] }));
    await task('After removal', shared.id);
    const marker = await task('Marker');
    assert.deepEqual(await nextEvents(s, 1), [['task.created', marker.id]]);

    // A filter on a team it cannot see matches nothing (the marker of a team it sees comes through a
    // stream without it).
    await task('Hidden again', secret.id);
    const second = await stream(token);
    const last = await task('Last marker');
    assert.deepEqual(await nextEvents(second, 1), [['task.created', last.id]]);
    assert.deepEqual(await nextEvents(s, 1), [['task.created', last.id]]);
    for (const x of [s, member_, second]) x.close();
  });

  test('a project of a hidden and a seen team names only the seen one', async () => {
    const member = await f.newUser('member');
    const token = await tokenOf(member.id);
    const hidden = await ok(f.owner.post('/v1/teams', { name: 'Hidden first', privacy: 'private' }));
    const s = await stream(token);
    const project = await ok(f.owner.post('/v1/projects', { name: 'Both', teamIds: [hidden.id, ops.id] }));
    const d = await nextData(s);
    assert.deepEqual([d.entityId, d.teamId, d.projectId], [project.id, ops.id, project.id]);
    const owner = await stream(f.ws.token);
    await ok(f.owner.post('/v1/projects', { id: project.id, name: 'Both renamed' }));
    assert.equal((await nextData(owner)).teamId, hidden.id);
    s.close();
    owner.close();
  });

  test('connections per user are capped: 429 with Retry-After past it', async () => {
    const member = await f.newUser('member');
    const token = await tokenOf(member.id);
    const held = [await stream(token), await stream(token), await stream(token)];
    for (const s of held) assert.equal(s.status, 200);
    const over = await stream(token);
    assert.equal(over.status, 429);
    assert.equal(over.problem.code, 'rate_limited');
    assert.equal(over.headers.get('retry-after'), '5');
    assert.match(over.problem.detail, /At most 3 live streams per user/);
    // Another user is not affected; a closed stream frees its place.
    assert.equal((await stream(f.ws.token)).status, 200);
    held[0]!.close();
    let status = 429;
    for (let i = 0; i < 100 && status === 429; i++) {
      const s = await stream(token);
      status = s.status;
      if (status === 429) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 200);
  });

  test('heartbeats; one after events the stream left out carries their position as id alone', async () => {
    const s = await stream(f.ws.token, { query: 'type=document.created' });
    assert.deepEqual((await s.next()).comments, ['stream open']);
    const beat = await s.next();
    assert.deepEqual(beat, { comments: ['heartbeat'] });
    await task('Left out');
    let moved: Frame | undefined;
    for (let i = 0; i < 100 && !moved; i++) {
      const frame = await s.next();
      assert.deepEqual(frame.comments, ['heartbeat']);
      assert.equal(frame.data, undefined);
      if (frame.id) moved = frame;
    }
    // The id is the position after the left-out event: the feed has nothing after it.
    const feed = await f.owner.get(`/v1/events?cursor=${moved!.id}`);
    assert.deepEqual(feed.body.data, []);
    s.close();
  });

  test('bad input is 400 and opens nothing; no token is 401', async () => {
    const bad = async (query: string, code: string, path: string, lastEventId?: string) => {
      const s = await stream(f.ws.token, { query, lastEventId, fresh: lastEventId === undefined });
      assert.equal(s.status, 400, JSON.stringify(s.problem));
      assert.equal(s.problem.code, code);
      assert.equal(s.problem.errors[0].path, path);
    };
    await bad('type=task.nope', 'validation_failed', '/query/type');
    await bad('types=task.created', 'validation_failed', '/query/types');
    await bad('teamId=ENG', 'validation_failed', '/query/teamId');
    await bad('', 'invalid_cursor', '/headers/last-event-id', 'not-a-position');
    await bad('after=not-a-position', 'invalid_cursor', '/query/after');
    await bad('', 'validation_failed', '/headers/last-event-id', '00000000-0000-4000-8000-000000000000');
    problem(await f.anonymous.get('/v1/events/stream'), 401, 'unauthenticated');
  });

  test('a position older than the retention gets one reset, then the stream goes on from now', async () => {
    const s = await stream(f.ws.token);
    await task('Soon pruned');
    await task('Pruned as well');
    const old = await nextData(s);
    s.close();
    // Eight days on, the hourly pruning deletes what is older than the retention (7 days): the
    // second task's event, after `old`, is gone; the one made now is kept.
    advanceClock(8 * DAY);
    const kept = await task('Kept');
    await pruneEvents(f.database.db, new Date(Date.parse(now()) - 7 * DAY).toISOString());
    const resumed = await stream(f.ws.token, { lastEventId: old.position });
    assert.equal(resumed.status, 200);
    const reset = await resumed.nextEvent();
    assert.equal(reset.event, 'reset');
    assert.deepEqual(JSON.parse(reset.data!), {
      reason:
        'Events after the given position are no longer kept (they are kept 7 days): read everything again, then carry on from here',
    });
    // It goes on from the end as it was at the reset: the kept event is before it (a client reads
    // everything again anyway), what comes later is sent.
    const feed = await f.owner.get(`/v1/events?cursor=${reset.id}`);
    assert.deepEqual(feed.body.data, []);
    const live = await task('After the reset');
    assert.deepEqual(await nextEvents(resumed, 1), [['task.created', live.id]]);
    assert.notEqual(kept.id, live.id);
    resumed.close();
  });
});

describe('closing the server', () => {
  test('ends every stream cleanly and closes promptly', async () => {
    const s = await stream(f.ws.token);
    await s.next();
    const closing = f.app.close();
    await s.ended;
    // The connections this client keeps idle (or opened and never used) are its own business.
    await closeConnections();
    await closing;
    // What was sent before the end (heartbeats) can still be read; then the stream has ended.
    await assert.rejects(async () => {
      for (let i = 0; i < 1000; i++) await s.next(1000);
    }, /the stream ended/);
  });
});
