import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canCreateGroup, canEditGroup, canSeeGroup, groupScope } from './policy.ts';

const owner = { role: 'owner' } as const;
const admin = { role: 'admin' } as const;
const member = { role: 'member' } as const;
const guest = { role: 'guest' } as const;
const open = { privacy: 'workspace' } as const;
const closed = { privacy: 'private' } as const;

test('workspace groups are seen by every non-guest; private ones by members and admins', () => {
  assert.equal(canSeeGroup(member, open, null), true);
  assert.equal(canSeeGroup(member, closed, null), false);
  assert.equal(canSeeGroup(member, closed, 'member'), true);
  assert.equal(canSeeGroup(admin, closed, null), true);
  assert.equal(canSeeGroup(owner, closed, null), true);
});

test('guests see only groups they belong to', () => {
  assert.equal(canSeeGroup(guest, open, null), false);
  assert.equal(canSeeGroup(guest, closed, 'member'), true);
  assert.deepEqual([owner, admin, member, guest].map(groupScope), [
    'all',
    'all',
    'workspace_or_member',
    'member_only',
  ]);
});

test('editing takes a workspace owner or admin, or a group owner who is not a guest', () => {
  assert.equal(canEditGroup(admin, null), true);
  assert.equal(canEditGroup(member, 'owner'), true);
  assert.equal(canEditGroup(member, 'member'), false);
  assert.equal(canEditGroup(member, null), false);
  assert.equal(canEditGroup(guest, 'owner'), false);
  assert.deepEqual([owner, admin, member, guest].map(canCreateGroup), [true, true, true, false]);
});
