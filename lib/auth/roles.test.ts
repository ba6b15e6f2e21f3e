import { describe, expect, it } from 'vitest';
import { ForbiddenError, UnauthorizedError } from './errors';
import {
  ACTIONS,
  assertCan,
  assertNotAgentToken,
  can,
  canDecideRelay,
  canSeeRun,
  ROLES,
  type Action,
  type Role,
} from './roles';

// The whole matrix, written out: a change to PERMISSIONS must change this table too.
const MATRIX: Record<Action, Record<Role, boolean>> = {
  'policy:read': { admin: true, approver: true, user: true },
  'policy:edit': { admin: true, approver: false, user: false },
  'grants:read': { admin: true, approver: true, user: false },
  'grants:manage': { admin: true, approver: false, user: false },
  'runs:start': { admin: true, approver: true, user: true },
  'runs:read:own': { admin: true, approver: true, user: true },
  'runs:read:any': { admin: true, approver: true, user: false },
  'relays:decide:own': { admin: true, approver: true, user: true },
  'relays:decide:any': { admin: true, approver: true, user: false },
  'audit:read': { admin: true, approver: true, user: false },
  'users:manage': { admin: true, approver: false, user: false },
  'tokens:manage:own': { admin: true, approver: true, user: true },
  'servers:manage': { admin: true, approver: false, user: false },
  'webhooks:manage': { admin: true, approver: false, user: false },
};

const rows = ACTIONS.flatMap((action) => ROLES.map((role) => [role, action, MATRIX[action][role]] as const));

describe('can(role, action)', () => {
  it('the matrix names every action', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...ACTIONS].sort());
  });

  it.each(rows)('%s may %s: %s', (role, action, allowed) => {
    expect(can({ id: 'u', role }, action)).toBe(allowed);
  });

  it.each(ACTIONS)('nobody signed in may not %s', (action) => {
    expect(can(undefined, action)).toBe(false);
  });

  it('an unknown role (a stale row, a bad cast) may do nothing', () => {
    expect(can({ id: 'u', role: 'root' as Role }, 'policy:read')).toBe(false);
  });
});

describe('run ownership', () => {
  const alice = { id: 'alice', role: 'user' as const };
  const bob = { id: 'bob', role: 'user' as const };
  const approver = { id: 'carol', role: 'approver' as const };
  const admin = { id: 'root', role: 'admin' as const };
  const alicesRun = { owner: 'alice' };
  const unowned = { owner: null };

  it.each([
    ['the owner', alice, alicesRun, true],
    ['another user', bob, alicesRun, false],
    ['an approver', approver, alicesRun, true],
    ['an admin', admin, alicesRun, true],
    ['a user, for a run without owner', alice, unowned, false],
    ['an approver, for a run without owner', approver, unowned, true],
    ['nobody', undefined, alicesRun, false],
  ] as const)('%s may decide its relays and see it: %s', (_who, user, run, allowed) => {
    expect(canDecideRelay(user, run)).toBe(allowed);
    expect(canSeeRun(user, run)).toBe(allowed);
  });
});

describe('assertCan', () => {
  it('401 for nobody, 403 forbidden:<action> for the wrong role, the user otherwise', () => {
    expect(() => assertCan(undefined, 'policy:edit')).toThrow(UnauthorizedError);
    expect(() => assertCan({ id: 'u', role: 'approver' }, 'policy:edit')).toThrow(ForbiddenError);
    try {
      assertCan({ id: 'u', role: 'user' }, 'users:manage');
    } catch (error) {
      expect(error).toMatchObject({ code: 'forbidden:users:manage', status: 403 });
    }
    const admin = { id: 'a', role: 'admin' as const, username: 'admin' };
    expect(assertCan(admin, 'policy:edit')).toBe(admin);
  });
});

describe('assertNotAgentToken', () => {
  it('403 forbidden:agent_token for an agent token, whatever the role; anyone else passes', () => {
    const agent = { id: 'a', role: 'admin' as const, tokenPurpose: 'agent' as const };
    expect(() => assertNotAgentToken(agent)).toThrow(ForbiddenError);
    try {
      assertNotAgentToken(agent);
    } catch (error) {
      expect(error).toMatchObject({ code: 'forbidden:agent_token', status: 403 });
      expect((error as Error).message).toMatch(/agent token only asks the gate/);
    }
    const full = { id: 'a', role: 'user' as const, tokenPurpose: 'full' as const };
    expect(assertNotAgentToken(full)).toBe(full);
    expect(assertNotAgentToken({ id: 's', role: 'user' as const })).toEqual({ id: 's', role: 'user' });
    expect(assertNotAgentToken(undefined)).toBeUndefined();
  });
});
