import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { problem, type Response, setup } from './test/helpers.ts';
import { TABLES } from './transfer/tables.ts';

// If-Match on every write (issue 20 §4; docs/reliability.md "If-Match"), generated from the route
// table: every POST and DELETE of the OpenAPI document is either exercised here or listed in
// NOT_EXERCISED with its reason, and a new write route that is neither fails the first test.
//  - A write on an existing resource is sent a stale tag (the version just before the current one):
//    it must be 412 precondition_failed and write nothing; then the current tag must succeed, which
//    shows the comparison is with the resource the request changes.
//  - A create is sent `*` and a made-up tag: 412 and nothing written (a new resource has no version
//    to match); then the same request without If-Match must succeed, so the 412 was the precondition.

const f = await setup(undefined, { CAIRN_WEBHOOK_ALLOW_PRIVATE: 'true' });
const owner = f.owner;

/** Operations that cannot be sent a stale If-Match here, with the reason and whether they take it. */
const NOT_EXERCISED: Record<string, { reason: string; takesIfMatch: boolean }> = {
  batchUpsertTasks: {
    reason: 'refuses If-Match with 400: one header cannot name each entry a version (etag.test.ts)',
    takesIfMatch: false,
  },
  // Sessions and passwords have no version: If-Match is refused with 400 (http/auth.test.ts).
  signIn: {
    reason: 'refuses If-Match with 400: a sign-in changes no versioned resource',
    takesIfMatch: false,
  },
  signOut: { reason: 'refuses If-Match with 400: a session has no version', takesIfMatch: false },
  deleteSession: { reason: 'refuses If-Match with 400: a session has no version', takesIfMatch: false },
  changePassword: { reason: 'refuses If-Match with 400: a password has no version', takesIfMatch: false },
  acceptInvitation: {
    reason: 'no credentials: the link is the proof, no version to compare',
    takesIfMatch: false,
  },
  requestPasswordReset: {
    reason: 'no credentials, and changes no resource of the caller',
    takesIfMatch: false,
  },
  resetPassword: {
    reason: 'no credentials: the link is the proof, no version to compare',
    takesIfMatch: false,
  },
};

interface Attempt {
  url: string;
  body?: unknown;
  /** The target's current ETag; none for a create. */
  tag?: string;
}

let counter = 0;
const unique = (name: string) => `${name} ${++counter}`;

async function made(
  url: string,
  body?: unknown,
): Promise<{ id: string; tag: string; body: Response['body'] }> {
  const res = await owner.post(url, body);
  assert.ok(res.status === 200 || res.status === 201, `${url}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.ok(res.headers.etag, `${url}: no ETag`);
  return { id: res.body.id, tag: String(res.headers.etag), body: res.body };
}

async function tagOf(url: string): Promise<string> {
  const res = await owner.get(url);
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  return String(res.headers.etag);
}

const team = await made('/v1/teams', { name: 'If-Match team' });
const area = await made('/v1/areas', { name: 'If-Match area' });
const statusId = (await owner.get('/v1/project-statuses')).body.data[0].id as string;
const newTask = () => made('/v1/tasks?expand=none', { name: unique('Task'), teamId: team.id });
const newThread = async () =>
  made('/v1/posts', { entityType: 'task', entityId: (await newTask()).id, content: unique('Thread') });
const newSubscription = async () => {
  // No worker runs in tests, so nothing writes to it in the background.
  const res = await owner.post('/v1/webhooks/subscribe', {
    hookUrl: `http://127.0.0.1:9/hook/${++counter}`,
    event: 'document.restored',
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id as string, tag: await tagOf(`/v1/webhooks/subscribe/${res.body.id}`) };
};

/** A create (`url` and `create`) and an update of a fresh one (its id and `change`). */
function upsert(url: string, create: () => object, change: object = { name: unique('Renamed') }) {
  return async (): Promise<Attempt[]> => {
    const target = await made(url, create());
    return [
      { url, body: create() },
      { url, body: { id: target.id, ...change }, tag: target.tag },
    ];
  };
}

/** An action (POST or DELETE on `path(id)`) on a fresh target. */
function on(make: () => Promise<{ id: string; tag: string }>, path: (id: string) => string, body?: unknown) {
  return async (): Promise<Attempt[]> => {
    const target = await make();
    return [{ url: path(target.id), body, tag: target.tag }];
  };
}

const EXERCISED: Record<string, () => Promise<Attempt[]>> = {
  upsertUser: upsert('/v1/users', () => ({ name: unique('User'), email: `u${++counter}@acme.test` })),
  createApiToken: async () => [{ url: '/v1/api-tokens', body: { name: 'Token' } }],
  createInvitation: async () => [
    { url: '/v1/invitations', body: { email: `invited${++counter}@acme.test`, role: 'member' } },
  ],
  revokeInvitation: on(
    () => made('/v1/invitations', { email: `revoked${++counter}@acme.test`, role: 'member' }),
    (id) => `/v1/invitations/${id}`,
  ),
  createPasswordLink: async () => [{ url: `/v1/users/${f.ws.user.id}/password-reset` }],
  deleteApiToken: on(
    () => made('/v1/api-tokens', { name: 'Doomed token' }),
    (id) => `/v1/api-tokens/${id}`,
  ),
  upsertTeam: upsert('/v1/teams', () => ({ name: unique('Team') })),
  archiveTeam: on(
    () => made('/v1/teams', { name: unique('Team') }),
    (id) => `/v1/teams/${id}/archive`,
  ),
  unarchiveTeam: on(
    async () => made(`/v1/teams/${(await made('/v1/teams', { name: unique('Team') })).id}/archive`),
    (id) => `/v1/teams/${id}/unarchive`,
  ),
  upsertArea: upsert('/v1/areas', () => ({ name: unique('Area') })),
  archiveArea: on(
    () => made('/v1/areas', { name: unique('Area') }),
    (id) => `/v1/areas/${id}/archive`,
  ),
  unarchiveArea: on(
    async () => made(`/v1/areas/${(await made('/v1/areas', { name: unique('Area') })).id}/archive`),
    (id) => `/v1/areas/${id}/unarchive`,
  ),
  upsertCollection: upsert('/v1/collections', () => ({ name: unique('Collection') })),
  upsertProjectStatus: upsert('/v1/project-statuses', () => ({ name: unique('Status') })),
  upsertProject: upsert('/v1/projects?expand=none', () => ({ name: unique('Project'), teamIds: [team.id] })),
  archiveProject: on(
    () => made('/v1/projects?expand=none', { name: unique('Project'), teamIds: [team.id] }),
    (id) => `/v1/projects/${id}/archive`,
  ),
  unarchiveProject: on(
    async () => {
      const project = await made('/v1/projects?expand=none', { name: unique('Project'), teamIds: [team.id] });
      return made(`/v1/projects/${project.id}/archive?expand=none`);
    },
    (id) => `/v1/projects/${id}/unarchive`,
  ),
  postProjectStatusUpdate: on(
    () => made('/v1/projects?expand=none', { name: unique('Project'), teamIds: [team.id] }),
    (id) => `/v1/projects/${id}/status-update`,
    { statusId, content: 'On track' },
  ),
  upsertTask: upsert('/v1/tasks?expand=none', () => ({ name: unique('Task'), teamId: team.id })),
  deleteTask: on(newTask, (id) => `/v1/tasks/${id}`),
  restoreTask: on(
    async () => {
      const task = await newTask();
      assert.equal((await owner.delete(`/v1/tasks/${task.id}`)).status, 204);
      return { id: task.id, tag: await tagOf(`/v1/tasks/${task.id}?expand=none`) };
    },
    (id) => `/v1/tasks/${id}/restore`,
  ),
  upsertDocument: upsert('/v1/documents?expand=none', () => ({ name: unique('Doc'), teamId: team.id })),
  deleteDocument: on(
    () => made('/v1/documents?expand=none', { name: unique('Doc'), teamId: team.id }),
    (id) => `/v1/documents/${id}`,
  ),
  restoreDocument: on(
    async () => {
      const doc = await made('/v1/documents?expand=none', { name: unique('Doc'), teamId: team.id });
      assert.equal((await owner.delete(`/v1/documents/${doc.id}`)).status, 204);
      return { id: doc.id, tag: await tagOf(`/v1/documents/${doc.id}?expand=none`) };
    },
    (id) => `/v1/documents/${id}/restore`,
  ),
  createPost: async () => [
    { url: '/v1/posts', body: { entityType: 'task', entityId: (await newTask()).id, content: 'Hello' } },
  ],
  resolvePost: on(newThread, (id) => `/v1/posts/${id}/resolve`),
  unresolvePost: on(
    async () => made(`/v1/posts/${(await newThread()).id}/resolve`),
    (id) => `/v1/posts/${id}/unresolve`,
  ),
  // A reaction's If-Match names its post (docs/reliability.md).
  addPostReaction: on(newThread, (id) => `/v1/posts/${id}/reactions`, { reaction: 'thumbsup' }),
  removePostReaction: on(
    async () => {
      const post = await newThread();
      assert.equal((await owner.post(`/v1/posts/${post.id}/reactions`, { reaction: 'tada' })).status, 201);
      return post;
    },
    (id) => `/v1/posts/${id}/reactions/tada`,
  ),
  upsertTaskTemplate: upsert('/v1/task-templates', () => ({ name: unique('Template'), areaId: area.id })),
  deleteTaskTemplate: on(
    () => made('/v1/task-templates', { name: unique('Template'), areaId: area.id }),
    (id) => `/v1/task-templates/${id}`,
  ),
  createTaskFromTemplate: async () => {
    const template = await made('/v1/task-templates', { name: unique('Template'), areaId: area.id });
    return [{ url: `/v1/task-templates/${template.id}/create-task`, body: {} }];
  },
  upsertProjectTemplate: upsert('/v1/project-templates', () => ({
    name: unique('Project template'),
    ownedByAreaId: area.id,
  })),
  deleteProjectTemplate: on(
    () => made('/v1/project-templates', { name: unique('Project template'), ownedByAreaId: area.id }),
    (id) => `/v1/project-templates/${id}`,
  ),
  createProjectFromTemplate: async () => {
    const template = await made('/v1/project-templates', {
      name: unique('Template'),
      ownedByAreaId: area.id,
    });
    return [{ url: `/v1/project-templates/${template.id}/create-project`, body: {} }];
  },
  subscribeWebhook: async () => {
    const target = await newSubscription();
    return [
      { url: '/v1/webhooks/subscribe', body: { hookUrl: 'http://127.0.0.1:9/new', event: 'task.restored' } },
      { url: '/v1/webhooks/subscribe', body: { id: target.id, event: 'document.*' }, tag: target.tag },
    ];
  },
  unsubscribeWebhook: on(newSubscription, (id) => `/v1/webhooks/subscribe/${id}`),
  rollWebhookSecret: on(newSubscription, (id) => `/v1/webhooks/subscribe/${id}/roll-secret`),
  // A retry queues a new attempt: a create. The delivery it repeats is written as the worker would.
  retryWebhookDelivery: async () => {
    const sub = await newSubscription();
    const id = randomUUID();
    await f.database.db
      .insertInto('webhook_deliveries')
      .values({
        workspace_id: f.ws.workspace.id,
        id,
        subscription_id: sub.id,
        event_id: randomUUID(),
        event_type: 'document.restored',
        attempt: 1,
        replay: false,
        status_code: 500,
        duration_ms: 3,
        error: null,
        next_attempt_at: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    return [{ url: `/v1/webhooks/subscribe/${sub.id}/deliveries/${id}/retry` }];
  },
};

/** Every stored row, but what authentication itself touches (last use of a token or a user). */
async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const { name } of TABLES) {
    const rows = await sql`select * from ${sql.table(name)}`.execute(f.database.db);
    const lines = rows.rows.map((row) => {
      const { last_used_at: _, last_accessed_at: __, ...kept } = row as Record<string, unknown>;
      return JSON.stringify(kept, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    });
    parts.push(`${name}: ${lines.sort().join('\n')}`);
  }
  return parts.join('\n');
}

/** The tag of the version 1 ms before the current one: what a client holds after a change it missed. */
function staleOf(tag: string): string {
  const m = /^"([0-9a-z]+)-(.*)"$/.exec(tag);
  assert.ok(m, `not a tag: ${tag}`);
  return `"${(Number.parseInt(m[1]!, 36) - 1).toString(36)}-${m[2]}"`;
}

interface Operation {
  operationId: string;
  parameters?: { $ref?: string }[];
  responses: Record<string, unknown>;
}
const doc = (await f.anonymous.get('/openapi.json')).body;
const writes: { method: 'POST' | 'DELETE'; path: string; id: string; operation: Operation }[] = [];
for (const [path, ops] of Object.entries<Record<string, Operation>>(doc.paths)) {
  if (!path.startsWith('/v1/')) continue;
  for (const [method, operation] of Object.entries(ops)) {
    if (method === 'post' || method === 'delete')
      writes.push({
        method: method === 'post' ? 'POST' : 'DELETE',
        path,
        id: operation.operationId,
        operation,
      });
  }
}

/** The operation lists the If-Match header (components.parameters.IfMatch, http/document.ts). */
function offersIfMatch(operation: Operation): boolean {
  return (operation.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IfMatch');
}

function send(method: 'POST' | 'DELETE', attempt: Attempt, ifMatch?: string) {
  const headers: Record<string, string> = ifMatch === undefined ? {} : { 'if-match': ifMatch };
  return method === 'POST'
    ? owner.post(attempt.url, attempt.body, headers)
    : owner.delete(attempt.url, headers);
}

describe('If-Match on every write, generated from the route table', () => {
  test('every write route is exercised or listed with a reason, and the document says which take If-Match', () => {
    const ids = writes.map((w) => w.id);
    const unknown = ids.filter((id) => !(id in EXERCISED) && !(id in NOT_EXERCISED));
    assert.deepEqual(unknown, [], 'write routes neither exercised nor listed in NOT_EXERCISED');
    const gone = [...Object.keys(EXERCISED), ...Object.keys(NOT_EXERCISED)].filter((id) => !ids.includes(id));
    assert.deepEqual(gone, [], 'listed operations the document no longer has');
    for (const w of writes) {
      const takes = NOT_EXERCISED[w.id]?.takesIfMatch ?? true;
      assert.equal(w.operation.responses['412'] !== undefined, takes, `${w.id}: 412 declared`);
      if (!takes) assert.equal(offersIfMatch(w.operation), false, `${w.id}: If-Match header declared`);
    }
  });

  for (const w of writes) {
    const make = EXERCISED[w.id];
    if (!make) continue;
    test(`${w.method} ${w.path} (${w.id})`, async () => {
      const attempts = await make();
      // The document offers If-Match where a write compares it with a resource it changes; on a
      // create (a new resource, a queued retry) it can only be 412, and is not offered.
      const compares = attempts.some((a) => a.tag !== undefined);
      assert.equal(offersIfMatch(w.operation), compares, `${w.id}: If-Match header declared`);
      for (const attempt of attempts) {
        const tags = attempt.tag === undefined ? ['*', '"zzzzzz-made-up"'] : [staleOf(attempt.tag)];
        for (const tag of tags) {
          const before = await snapshot();
          const res = await send(w.method, attempt, tag);
          problem(res, 412, 'precondition_failed');
          assert.equal(await snapshot(), before, `${w.id} with If-Match ${tag} wrote something`);
        }
        const ok = await send(w.method, attempt, attempt.tag);
        assert.ok(
          ok.status >= 200 && ok.status < 300,
          `${w.id} ${attempt.url}: ${ok.status} ${JSON.stringify(ok.body)}`,
        );
      }
    });
  }
});
