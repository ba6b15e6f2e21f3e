// Each way a call can be settled, in the card's words.
import { describe, expect, it } from 'vitest';
import type { Decision } from '@/lib/policy/types';
import { howDecided } from './tool-how';

const decision = (over: Partial<Decision>): Decision => ({
  action: 'allow',
  reason: 'matched_rule',
  explanation: '',
  ...over,
});

describe('howDecided', () => {
  it.each([
    [
      'a rule that allowed (numbered as the rules page numbers it)',
      { decision: decision({ rule: { index: 11, action: 'allow' } }) },
      'allowed by rule #12',
    ],
    [
      'a named rule',
      { decision: decision({ rule: { index: 0, id: 'read-workspace', action: 'allow' } }) },
      'allowed by rule #1 (read-workspace)',
    ],
    [
      'a rule that denied',
      { decision: decision({ action: 'deny', rule: { index: 2, action: 'deny' } }) },
      'denied by rule #3',
    ],
    [
      'an Always Allow grant',
      { decision: decision({ reason: 'session_grant', grant: { index: 0, action: 'allow' } }) },
      'allowed by Always Allow (grant)',
    ],
    ['the mode', { decision: decision({ action: 'deny', reason: 'mode' }) }, "denied by the run's mode"],
    ['the default for the risk', { decision: decision({ reason: 'risk_default' }) }, 'allowed by default'],
    [
      'a human approval',
      { decision: decision({ action: 'ask' }), resolution: { status: 'approved', decidedBy: 'alice' } },
      'approved by alice',
    ],
    [
      'a human Always Allow (an older event, no scope)',
      { decision: decision({ action: 'ask' }), resolution: { status: 'approved', decidedBy: 'alice', always: true } },
      'Always Allow by alice',
    ],
    [
      'a human Always Allow for the session',
      { resolution: { status: 'approved', decidedBy: 'alice', always: true, scope: 'session' } },
      'Always Allow (session) by alice',
    ],
    [
      'a human Always Allow for everyone',
      { resolution: { status: 'approved', decidedBy: 'admin', always: true, scope: 'global' } },
      'Always Allow (everyone) by admin',
    ],
    [
      'a human denial with a reason',
      { resolution: { status: 'denied', decidedBy: 'admin', reason: 'not today' } },
      'denied by admin: not today',
    ],
    [
      'a timeout',
      { resolution: { status: 'expired', decidedBy: 'system', reason: 'Approval timeout' } },
      'expired: no decision in time',
    ],
    [
      'a stopped run',
      { resolution: { status: 'cancelled', decidedBy: 'system', reason: 'The run was stopped' } },
      'cancelled: The run was stopped',
    ],
  ] as const)('%s', (_name, item, text) => {
    expect(howDecided(item)).toBe(text);
  });

  it('a call still asking, or one that never reached the gate, says nothing', () => {
    expect(howDecided({ decision: decision({ action: 'ask' }) })).toBeUndefined();
    expect(howDecided({})).toBeUndefined();
  });
});
