// A person id in a request names someone of the caller's directory, or no one: for a guest, a real
// person outside its groups answers exactly as a random id, and no answer carries their name or email.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Response, setup } from '../../test/helpers.ts';

const f = await setup();
const guest = await f.newUser('guest', 'Gus Guest');
const mate = await f.newUser('member', 'Mia Mate');
const outsider = await f.newUser('member', 'Xavier Outsider');
const outsiderEmail = (await f.owner.get(`/v1/users?limit=100`)).body.data.find(
  (u: { id: string }) => u.id === outsider.id,
).email;
const eng = (
  await f.owner.post('/v1/teams', { name: 'Engineering', members: [{ id: guest.id }, { id: mate.id }] })
).body;
await f.owner.post('/v1/teams', { name: 'Vault', privacy: 'private', members: [{ id: outsider.id }] });

/** What a client sees of an answer, without what differs on every request (the id sent is echoed). */
function seen(res: Response, sent: string) {
  const { requestId: _, ...body } = res.body ?? {};
  return { status: res.status, body: JSON.stringify(body).replaceAll(sent, '<sent id>') };
}

/** The answers to the same request with a real outsider and with a random id are the same. */
async function sameAnswer(send: (id: string) => Promise<Response>) {
  const real = await send(outsider.id);
  const other = randomUUID();
  const random = await send(other);
  assert.deepEqual(seen(real, outsider.id), seen(random, other));
  const text = JSON.stringify(real.body);
  assert.ok(!text.includes('Xavier') && !text.includes(outsiderEmail), text);
  return real;
}

describe('a guest naming someone outside its directory', () => {
  test('as a new task assignee: 400 as for a random id; someone of its groups is fine', async () => {
    const res = await sameAnswer((id) =>
      guest.api.post('/v1/tasks?expand=assignee', { name: 'Spy', teamId: eng.id, assignedToId: id }),
    );
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, [
      { path: '/body/assignedToId', message: 'no user with this id in the workspace' },
    ]);
    const ok = await guest.api.post('/v1/tasks?expand=assignee', {
      name: 'Pair',
      teamId: eng.id,
      assignedToId: mate.id.toUpperCase(),
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.assignee.name, 'Mia Mate');
  });

  test('in an update and a batch entry alike; an assignee already on the task may be sent back', async () => {
    const task = (
      await f.owner.post('/v1/tasks?expand=none', {
        name: 'Theirs',
        teamId: eng.id,
        assignedToId: outsider.id,
      })
    ).body;
    const mine = (await guest.api.post('/v1/tasks?expand=none', { name: 'Mine', teamId: eng.id })).body;
    const update = await sameAnswer((id) => guest.api.post('/v1/tasks', { id: mine.id, assignedToId: id }));
    assert.equal(update.status, 400);
    const batch = await sameAnswer((id) =>
      guest.api.post('/v1/tasks/batch', {
        tasks: [
          { name: 'Batch spy', teamId: eng.id, assignedToId: id },
          { id: mine.id, assignedToId: id },
        ],
      }),
    );
    assert.deepEqual(
      batch.body.failed.map((e: { code: string; error: string }) => [e.code, e.error]),
      [
        ['validation_failed', '/assignedToId no user with this id in the workspace'],
        ['validation_failed', '/assignedToId no user with this id in the workspace'],
      ],
    );
    const kept = await guest.api.post('/v1/tasks?expand=none', {
      id: task.id,
      name: 'Theirs, renamed',
      assignedToId: outsider.id,
    });
    assert.deepEqual([kept.status, kept.body.assignedToId], [200, outsider.id]);
  });

  test("as a token's user: 400 as for a random id (not a 403 that confirms them)", async () => {
    const res = await sameAnswer((userId) => guest.api.post('/v1/api-tokens', { name: 'x', userId }));
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].path, '/body/userId');
    const mates = await guest.api.post('/v1/api-tokens', { name: 'x', userId: mate.id });
    assert.equal(mates.status, 403, 'someone of its groups exists for it: not allowed');
  });

  test('as a user to update: 404 as for a random id', async () => {
    const res = await sameAnswer((id) => guest.api.post('/v1/users', { id, name: 'Renamed' }));
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
  });

  test('as a project owner or a team member: refused before any id is looked at', async () => {
    const project = await sameAnswer((ownerId) =>
      guest.api.post('/v1/projects', { name: 'P', teamId: eng.id, ownerId }),
    );
    assert.equal(project.status, 403);
    const team = await sameAnswer((id) => guest.api.post('/v1/teams', { name: 'T', members: [{ id }] }));
    assert.equal(team.status, 403);
  });
});

describe('a template names someone outside the directory of who uses it', () => {
  test('the task a guest makes from it has no assignee, and the answer does not name them', async () => {
    const area = (
      await f.owner.post('/v1/areas', { name: 'Guest area', publicId: 'GAR', members: [{ id: guest.id }] })
    ).body;
    const template = await f.owner.post('/v1/task-templates', {
      name: 'Chore',
      areaId: area.id,
      assignedToId: outsider.id,
    });
    assert.equal(template.status, 201, JSON.stringify(template.body));
    const made = await guest.api.post(`/v1/task-templates/${template.body.id}/create-task`, {});
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.assignedToId, null);
    const text = JSON.stringify(made.body);
    assert.ok(!text.includes('Xavier') && !text.includes(outsiderEmail), text);
    // The owner, whose directory holds everyone, gets the template's assignee.
    const owners = await f.owner.post(`/v1/task-templates/${template.body.id}/create-task`, {});
    assert.equal(owners.body.assignee.name, 'Xavier Outsider');
  });

  test('a guest cannot name them in a template either: as for a random id', async () => {
    const area = (await f.owner.get('/v1/areas/GAR?expand=none')).body;
    await sameAnswer((id) =>
      guest.api.post('/v1/task-templates', { name: 'Spy', areaId: area.id, assignedToId: id }),
    );
  });
});
