import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canIssueTokenFor, canRevokeToken } from '../api-tokens/policy.ts';
import { canCreateUser, isWorkspaceAdmin, seesWholeDirectory } from './policy.ts';

test('owners add anyone; admins anyone but owners; others no one', () => {
  assert.equal(canCreateUser({ role: 'owner' }, 'owner'), true);
  assert.equal(canCreateUser({ role: 'admin' }, 'owner'), false);
  assert.equal(canCreateUser({ role: 'admin' }, 'admin'), true);
  assert.equal(canCreateUser({ role: 'member' }, 'guest'), false);
  assert.equal(canCreateUser({ role: 'guest' }, 'guest'), false);
  assert.deepEqual(
    (['owner', 'admin', 'member', 'guest'] as const).map((role) => [
      isWorkspaceAdmin({ role }),
      seesWholeDirectory({ role }),
    ]),
    [
      [true, true],
      [true, true],
      [false, true],
      [false, false],
    ],
  );
});

test('tokens: anyone for themselves; admins for non-owners; owners for all', () => {
  const me = { id: 'me', role: 'member' } as const;
  assert.equal(canIssueTokenFor(me, { id: 'me', role: 'member' }), true);
  assert.equal(canIssueTokenFor(me, { id: 'you', role: 'member' }), false);
  assert.equal(canIssueTokenFor({ id: 'a', role: 'admin' }, { id: 'b', role: 'member' }), true);
  assert.equal(canIssueTokenFor({ id: 'a', role: 'admin' }, { id: 'b', role: 'owner' }), false);
  assert.equal(canIssueTokenFor({ id: 'o', role: 'owner' }, { id: 'b', role: 'owner' }), true);
  assert.equal(canRevokeToken(me, { userId: 'me' }), true);
  assert.equal(canRevokeToken(me, { userId: 'you' }), false);
  assert.equal(canRevokeToken({ id: 'a', role: 'admin' }, { userId: 'you' }), true);
});
