import { describe, expect, it } from 'vitest';
import {
  alwaysAllowVerdict,
  compilePolicy,
  DEFAULT_POLICY,
  derivePermission,
  grantFitsCall,
  type Rule,
  type ToolCall,
} from './index';

const ws = { workspaceRoot: '/ws', homeDir: '/home/u' };
const bash = (command: string): ToolCall => ({ tool: 'bash', params: { command } });
const defaults = compilePolicy(DEFAULT_POLICY);
const withAsk = compilePolicy({
  ...DEFAULT_POLICY,
  rules: [
    ...(DEFAULT_POLICY.rules ?? []),
    { id: 'ask-deploys', action: 'ask', tool: 'bash', params: { command: 'deploy *' } },
  ],
});
/** What Always Allow would store for the call, as the loop computes it (suggested, filtered), and what was derived. */
function verdict(policy: typeof defaults, call: ToolCall) {
  const derived = derivePermission(call, ws);
  const suggested = derived.filter((rule) => grantFitsCall(rule, call, ws));
  return alwaysAllowVerdict(policy, call, suggested, ws, derived);
}

describe('Always Allow keeps its word: offered only when the grant covers this very call', () => {
  it('a grant that covers the call: covers', () => {
    expect(verdict(defaults, bash('ls -la'))).toEqual({ covers: true });
  });

  it.each([
    ['a redirection to a file (command rules never cover it)', bash('echo hi > r.txt'), /redirects output to a file/],
    ['a risky environment assignment', bash('LD_PRELOAD=x ls'), /LD_PRELOAD/],
    ['a part no suggestion covers', bash('ls && echo hi > r.txt'), /Part `echo hi`.*redirects output/],
  ])('%s: does not cover, and says why', (_name, call, why) => {
    const v = verdict(defaults, call);
    expect(v.covers).toBe(false);
    expect(v.reason).toMatch(why);
    expect(v.rule).toBeUndefined();
  });

  it('an ask rule: grants never override it, so the verdict names the rule', () => {
    const v = verdict(withAsk, bash('deploy prod'));
    expect(v.covers).toBe(false);
    expect(v.rule).toMatchObject({ action: 'ask', id: 'ask-deploys', index: DEFAULT_POLICY.rules?.length });
  });

  it('an edited rule is judged the same way (the live re-check of the inline editor)', () => {
    const call = bash('ls -la');
    expect(
      alwaysAllowVerdict(defaults, call, [{ action: 'allow', tool: 'bash', params: { command: 'cat *' } } as Rule], ws)
        .covers,
    ).toBe(false);
    expect(
      alwaysAllowVerdict(defaults, call, [{ action: 'allow', tool: 'bash', params: { command: 'ls -la' } } as Rule], ws)
        .covers,
    ).toBe(true);
  });

  it('nothing to suggest: does not cover', () => {
    expect(alwaysAllowVerdict(defaults, bash('ls'), [], ws, [])).toEqual({
      covers: false,
      reason: 'No rule can be suggested for this call.',
    });
  });
});
