import { describe, expect, it } from 'vitest';
import { detectFormat, evaluate, importPolicy, PolicySchema, PolicyValidationError } from './index';

describe('9. import formats', () => {
  it('reads the canonical format and fills defaults', () => {
    const policy = importPolicy({ rules: [{ action: 'deny', tool: 'bash', params: { command: 'rm *' } }] });
    expect(policy).toEqual({
      defaultAction: 'ask',
      rules: [{ action: 'deny', tool: 'bash', params: { command: 'rm *' } }],
    });
    expect(PolicySchema.parse(policy)).toEqual(policy);
  });

  it("reads the seeds' { allowlist, deny, allowOnce } permissions", () => {
    const doc = {
      allowlist: [{ tool: 'read_file' }, { tool: 'bash', params: { command: 'git status' } }],
      deny: [{ tool: 'bash', params: { command: 'rm *' } }],
      allowOnce: [{ tool: 'write_file', params: { path: 'notes.md' } }],
    };
    expect(detectFormat(doc)).toBe('seed_permissions');
    const policy = importPolicy(doc);
    expect(policy.rules).toEqual([
      { action: 'deny', tool: 'bash', params: { command: 'rm *' } },
      { action: 'allow', tool: 'read_file' },
      { action: 'allow', tool: 'bash', params: { command: 'git status' } },
      { action: 'allow', tool: 'write_file', params: { path: 'notes.md' }, once: true },
    ]);
    expect(evaluate(policy, { tool: 'bash', params: { command: 'rm -rf x' } }).action).toBe('deny');
  });

  it('reads the snake_case rules format, approve meaning ask', () => {
    const doc = {
      default_action: 'deny',
      rules: [
        {
          tool: 'bash',
          action: 'approve',
          timeout_s: 30,
          on_timeout: 'deny',
          when: [{ key: 'command', op: 'command_ask_always', value: 'git' }],
        },
        { tool: 'read_*', action: 'allow' },
        { tool: 'bash', action: 'deny', when: { param: 'command', op: 'command_blacklist', value: 'rm,sudo' } },
      ],
    };
    expect(detectFormat(doc)).toBe('snake_rules');
    expect(importPolicy(doc)).toEqual({
      defaultAction: 'deny',
      rules: [
        {
          action: 'ask',
          tool: 'bash',
          timeoutS: 30,
          onTimeout: 'deny',
          when: [{ key: 'command', op: 'command_ask_always', value: 'git' }],
        },
        { action: 'allow', tool: 'read_*' },
        { action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'rm,sudo' }] },
      ],
    });
  });

  it.each([
    ['not an object', 'x', ''],
    ['an array', [], ''],
    ['a bad action', { rules: [{ action: 'sometimes', tool: 'x' }] }, 'rules.0.action'],
    ['an empty tool', { rules: [{ action: 'allow', tool: ' ' }] }, 'rules.0.tool'],
    ['an unknown field', { rules: [{ action: 'allow', tool: 'x', colour: 'red' }] }, 'rules.0'],
    [
      'a bad op',
      { rules: [{ action: 'deny', tool: 'x', when: [{ key: 'k', op: 'like', value: 'v' }] }] },
      'rules.0.when.0.op',
    ],
    [
      'a bad regex',
      { rules: [{ action: 'deny', tool: 'x', when: [{ key: 'k', op: 'regex', value: '([' }] }] },
      'rules.0.when.0.value',
    ],
    [
      'a bad host',
      { rules: [{ action: 'deny', tool: 'x', when: [{ key: 'u', op: 'host', value: '10.0.0.0/99' }] }] },
      'rules.0.when.0.value',
    ],
    [
      'a command pattern with two commands',
      { rules: [{ action: 'allow', tool: 'bash', params: { command: 'ls; rm x' } }] },
      'rules.0.params.command',
    ],
    ['a negative timeout', { rules: [{ action: 'ask', tool: 'x', timeoutS: -1 }] }, 'rules.0.timeoutS'],
    ['a seed entry without tool', { allowlist: [{ params: {} }] }, 'allowlist.0.tool'],
    [
      'a snake rule with a bad action',
      { default_action: 'ask', rules: [{ tool: 'x', action: 'maybe' }] },
      'rules.0.action',
    ],
    ['a bad default action', { defaultAction: 'perhaps', rules: [] }, 'defaultAction'],
  ])('rejects %s with a typed error naming the field', (_name, doc, path) => {
    let error: unknown;
    try {
      importPolicy(doc);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PolicyValidationError);
    const issues = (error as PolicyValidationError).issues;
    expect(issues.map((i) => i.path)).toContain(path);
    expect((error as Error).message).toContain(path || '(root)');
  });
});
